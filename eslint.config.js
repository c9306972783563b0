import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layers of tarang, lowest first. A layer may import itself and the layers before it that it
 * lists; nothing imports upward (src/README.md draws the picture):
 *   core <- risk, strategies <- adapters <- engine <- daemon, backtest <- cli
 */
const LAYERS = {
  core: { dir: './src/core', may: [] },
  risk: { dir: './src/risk', may: ['core'] },
  strategies: { dir: './src/strategies', may: ['core'] },
  adapters: { dir: './src/adapters', may: ['core', 'risk', 'strategies'] },
  engine: { dir: './src/engine', may: ['core', 'risk', 'strategies', 'adapters'] },
  daemon: { dir: './src/daemon', may: ['core', 'risk', 'strategies', 'adapters', 'engine'] },
  backtest: { dir: './backtest', may: ['core', 'risk', 'strategies', 'adapters', 'engine'] },
  cli: { dir: './src/cli', may: ['core', 'risk', 'strategies', 'adapters', 'engine', 'daemon', 'backtest'] },
};

const layerZones = Object.entries(LAYERS).flatMap(([name, layer]) =>
  Object.entries(LAYERS)
    .filter(([other]) => other !== name && !layer.may.includes(other))
    .map(([other, o]) => ({
      target: layer.dir,
      from: o.dir,
      message: `layer rule: ${name} may import only ${[name, ...layer.may].join(', ')} (not ${other}); see src/README.md`,
    })),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Read time from the Clock (src/core/clock.ts).' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'backtest/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/core/clock.ts', 'bench/**', 'test/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  { files: ['bin/**/*.js'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
);

/** Trading costs: exact presets from config/charges/*.yaml (see charge-preset.ts for the formula). */
export * from './exact-rate.js';
export * from './charge-preset.js';

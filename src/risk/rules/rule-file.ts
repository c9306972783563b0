/**
 * Reads one dated rule file of `config/market-rules/` (freeze quantities, square-off times, price
 * bands, ...). Every file says when it was last checked and where from (`last_checked`,
 * `source`); a file without them, or with a malformed body, fails naming the file and the key.
 * Read once per process per file: the values are data, changed by editing the file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { configPath } from '../../core/paths.js';
import { formatZodIssues } from '../../core/zod-issues.js';

/** What every rule file carries besides its body. */
export interface RuleFileHeader {
  /** `YYYY-MM-DD`: when the values were last checked against their source. */
  readonly lastChecked: string;
  readonly source: string;
}

const Header = z.object({
  last_checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD'),
  source: z.string().min(10, 'say where the values come from'),
});

const cache = new Map<string, unknown>();

/** Parses rule-file text (a test may hand its own); `where` names it in errors. */
export function parseRuleFile<T extends z.ZodType>(text: string, where: string, body: T): RuleFileHeader & z.output<T> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new ConfigError(`${where}: not valid YAML: ${(err as Error).message}`, { file: where });
  }
  const schema = Header.and(body);
  const parsed = schema.safeParse(doc);
  if (!parsed.success) throw new ConfigError(`${where}: ${formatZodIssues(parsed.error)}`, { file: where });
  const { last_checked, source, ...rest } = parsed.data as z.output<typeof Header> & Record<string, unknown>;
  return Object.assign(rest, { lastChecked: last_checked, source }) as RuleFileHeader & z.output<T>;
}

/** `config/market-rules/<name>.yaml`, parsed with `body` (cached). */
export function readRuleFile<T extends z.ZodType>(name: string, body: T): RuleFileHeader & z.output<T> {
  const hit = cache.get(name);
  if (hit) return hit as RuleFileHeader & z.output<T>;
  const file = configPath('market-rules', `${name}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read the market-rules file: ${(err as Error).message}`, { file });
  }
  const data = parseRuleFile(text, file, body);
  cache.set(name, data);
  return data;
}

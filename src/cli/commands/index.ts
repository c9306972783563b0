/**
 * Every subcommand, registered in the order `tarang --help` lists them. One line per command
 * file; each file exports `register(program)`.
 */
import type { Command } from 'commander';
import { register as demo } from './demo.js';
import { register as ctl } from './ctl.js';

export function registerCommands(program: Command): void {
  demo(program);
  ctl(program);
}

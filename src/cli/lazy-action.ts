/**
 * A command action whose implementation is imported when the command runs. Each file in
 * src/cli/commands/ declares its command (name, arguments, options: cheap, all that `--help` needs)
 * and points its action at src/cli/actions/<command>.ts through here, so `tarang --help` or one
 * command never loads the others' modules (the simulator, fastify, the broker, the daemon).
 */
export function lazyAction<A extends unknown[]>(load: () => Promise<(...args: A) => unknown>): (...args: A) => Promise<void> {
  return async (...args: A): Promise<void> => {
    const run = await load();
    await run(...args);
  };
}

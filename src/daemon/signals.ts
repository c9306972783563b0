/**
 * SIGINT / SIGTERM handling for the daemon: the first signal starts a clean stop (in-flight writes
 * finish, state is persisted, sockets close); a second one while stopping exits at once (the next
 * start reconciles whatever was in flight, by tag, so even that loses nothing at the broker).
 */
export interface SignalOptions {
  readonly stop: (signal: NodeJS.Signals) => Promise<void>;
  readonly onForce?: (signal: NodeJS.Signals) => void;
  readonly signals?: readonly NodeJS.Signals[];
  readonly proc?: Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;
}

/** Installs the handlers; returns a function that removes them. */
export function handleStopSignals(o: SignalOptions): () => void {
  const proc = o.proc ?? process;
  const signals = o.signals ?? ['SIGINT', 'SIGTERM'];
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) {
      o.onForce?.(signal);
      proc.exit(signal === 'SIGINT' ? 130 : 143);
      return;
    }
    stopping = true;
    void o.stop(signal);
  };
  for (const s of signals) proc.on(s, handler);
  return () => {
    for (const s of signals) proc.off(s, handler);
  };
}

/** What tarang is, in two lines: the program's description and `tarang demo`'s greeting. */
export const ABOUT = `tarang: an event-driven algorithmic trading engine for an Indian broker's REST + WebSocket API.
The same strategy code runs live (daemon), on history (backtest) and against the built-in broker simulator (paper).`;

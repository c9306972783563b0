/**
 * The broker simulator (issue 3). What lives where: README.md in this folder.
 *   const sim = await startSimulator({ clock: new VirtualClock(t0) });
 *   sim.baseUrl, sim.wsUrl, sim.credentials.access_token ... await sim.close();
 */
export { startSimulator, defaultStart } from './simulator.js';
export type { RunningSimulator, SimulatorCredentials, SimulatorOptions } from './simulator.js';

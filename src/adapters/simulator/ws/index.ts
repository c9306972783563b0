/** The simulator's WebSocket: hub (auth, limits, fan-out, faults) and the frame shapes. */
export * from './ws-hub.js';
export * from './ws-messages.js';

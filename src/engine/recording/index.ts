/** The session recording format and its reader (format.ts explains the format and its versions). */
export * from './format.js';
export * from './reader.js';

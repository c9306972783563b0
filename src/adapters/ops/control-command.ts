/** The control API's commands (`tarang ctl <command>`), apart from the client so `--help` can list them without loading undici. */
export const ControlCommand = { STATUS: 'status', HALT: 'halt', RESUME: 'resume', FLATTEN: 'flatten' } as const;
export type ControlCommand = (typeof ControlCommand)[keyof typeof ControlCommand];

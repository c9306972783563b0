/** The state folder lives in core (the broker's shared session uses it too); re-exported for the daemon. */
export { defaultStateDir } from '../core/state-dir.js';

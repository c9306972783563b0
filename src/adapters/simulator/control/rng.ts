/** The simulator's fault draws use the shared seeded generator: same seed, same faults. */
export { mulberry32 as seededRandom } from '../../../core/random.js';

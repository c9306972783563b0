/** The candle catalog could not do what was asked: the message names the file or the series. */
import { TarangError } from '../../core/errors.js';

export class CatalogError extends TarangError {
  readonly code = 'CATALOG' as const;
}

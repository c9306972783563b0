/**
 * Quotes for any number of scrip codes: batched 1000 a call (spec 4.2), and since one bad code
 * fails a whole batch with 400 (wire-gaps trap), a refused batch is bisected until the bad codes
 * are isolated; they are returned apart instead of failing everything.
 */
import { DataException, InputException } from '../errors.js';
import { MAX_QUOTE_CODES, type BrokerClient } from '../client.js';
import type { CircuitQuote, FullQuote, LtpQuote } from '../schemas/quotes.js';

export interface BatchedQuotes<Q> {
  readonly quotes: Record<string, Q>;
  /** Codes the broker refused (unknown or malformed), isolated by bisection. */
  readonly invalid: string[];
  /** Calls made, bisection included. */
  readonly calls: number;
}

type Fetch<Q> = (codes: readonly string[]) => Promise<Record<string, Q>>;

function refusesBatch(e: unknown): boolean {
  return (e instanceof InputException || e instanceof DataException) && e.context.status === 400;
}

async function batched<Q>(codes: readonly string[], fetch: Fetch<Q>, batchSize: number): Promise<BatchedQuotes<Q>> {
  const unique = [...new Set(codes)];
  const quotes: Record<string, Q> = {};
  const invalid: string[] = [];
  let calls = 0;
  const run = async (batch: readonly string[]): Promise<void> => {
    calls++;
    try {
      Object.assign(quotes, await fetch(batch));
    } catch (e) {
      if (!refusesBatch(e)) throw e;
      if (batch.length === 1) {
        invalid.push(batch[0]!);
        return;
      }
      const mid = batch.length >> 1;
      await run(batch.slice(0, mid));
      await run(batch.slice(mid));
    }
  };
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += batchSize) batches.push(unique.slice(i, i + batchSize));
  await Promise.all(batches.map(run));
  return { quotes, invalid, calls };
}

export function fullQuotes(client: BrokerClient, codes: readonly string[], batchSize = MAX_QUOTE_CODES): Promise<BatchedQuotes<FullQuote>> {
  return batched(codes, (b) => client.quotesFull(b), Math.min(batchSize, MAX_QUOTE_CODES));
}

/** Circuit bands from full quotes, nothing else of them decoded (the daemon's periodic refresh). */
export function circuitQuotes(client: BrokerClient, codes: readonly string[], batchSize = MAX_QUOTE_CODES): Promise<BatchedQuotes<CircuitQuote>> {
  return batched(codes, (b) => client.quotesCircuits(b), Math.min(batchSize, MAX_QUOTE_CODES));
}

export function ltpQuotes(client: BrokerClient, codes: readonly string[], batchSize = MAX_QUOTE_CODES): Promise<BatchedQuotes<LtpQuote>> {
  return batched(codes, (b) => client.quotesLtp(b), Math.min(batchSize, MAX_QUOTE_CODES));
}

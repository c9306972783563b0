/** Contract search as async iterators over pages (spec 4.5: `count` total, `page_size` <= 100). */
import type { BrokerClient } from '../client.js';
import type { Contract, ContractPage, ContractSearchInput, ExpiredContract, ExpiredContractPage, ExpiredSearchInput } from '../schemas/contracts.js';

async function* pages<P extends { count: number; pageSize: number; instruments: unknown[] }>(fetch: (page: number) => Promise<P>): AsyncGenerator<P> {
  for (let page = 1; ; page++) {
    const p = await fetch(page);
    yield p;
    if (p.instruments.length === 0 || page * p.pageSize >= p.count) return;
  }
}

export function contractPages(client: BrokerClient, input: ContractSearchInput): AsyncGenerator<ContractPage> {
  return pages((page) => client.searchContracts(input, page));
}

export function expiredContractPages(client: BrokerClient, input: ExpiredSearchInput): AsyncGenerator<ExpiredContractPage> {
  return pages((page) => client.searchExpiredContracts(input, page));
}

/** Every matching contract, page after page. */
export async function* searchContracts(client: BrokerClient, input: ContractSearchInput): AsyncGenerator<Contract> {
  for await (const p of contractPages(client, input)) yield* p.instruments;
}

export async function* searchExpiredContracts(client: BrokerClient, input: ExpiredSearchInput): AsyncGenerator<ExpiredContract> {
  for await (const p of expiredContractPages(client, input)) yield* p.instruments;
}

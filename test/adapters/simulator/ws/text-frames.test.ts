/** The hub's one-write framing gives a WebSocket client exactly the messages sent, whatever their size and characters. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { textFrames } from '../../../../src/adapters/simulator/ws/text-frames.js';

/** What a `ws` client reads when a server writes `bytes` to its socket as the hub does. */
async function clientReads(bytes: Buffer, count: number): Promise<string[]> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', (ws) => (ws as unknown as { _socket: { write(b: Buffer): boolean } })._socket.write(bytes));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`, { perMessageDeflate: false });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const out: string[] = [];
      client.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) reject(new Error('a binary frame'));
        out.push(data.toString('utf8'));
        if (out.length === count) resolve(out);
      });
      client.on('error', reject);
      client.on('close', () => reject(new Error(`closed after ${out.length} messages`)));
    });
  } finally {
    client.terminate();
    wss.close();
    await new Promise((r) => http.close(r));
  }
}

describe('text frames in one buffer', () => {
  it('frames every payload length class and multi-byte text so that a client reads back the same messages', async () => {
    const texts = [
      '',
      'x'.repeat(125),
      'y'.repeat(126),
      // Fewer than 126 units but more than 125 bytes: the header follows the bytes, not the units.
      '₹'.repeat(50),
      // Over 21,844 units and 65,535 bytes: the 8-byte length.
      `{"name":"${'é'.repeat(40_000)}"}`,
      'z'.repeat(65_535),
      '{"mode":"full","instrument":"2885","exchange":"NSE","timestamp":1,"data":{"ltp":2450.5}}',
    ];
    expect(await clientReads(textFrames(texts), texts.length)).toEqual(texts);
  });

  it('grows its buffer when the texts are mostly multi-byte (sized first for one byte a unit)', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `${i}:${'₹'.repeat(100)}`);
    const bytes = textFrames(texts);
    expect(bytes.length).toBe(texts.reduce((n, t) => n + 4 + Buffer.byteLength(t), 0));
    expect(await clientReads(bytes, texts.length)).toEqual(texts);
  });

  it('writes the bytes of one unmasked final text frame per message', () => {
    expect([...textFrames(['abc'])]).toEqual([0x81, 3, 0x61, 0x62, 0x63]);
    expect(textFrames([]).length).toBe(0);
  });
});

/** A small authoritative DNS server on a random UDP port: the zone is a map the test edits. */
import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

const { Packet } = dns2;

export interface FakeRecords {
  A?: string[];
  CNAME?: string;
  /** Each record is one or more character-strings. */
  TXT?: string[][];
}

export interface FakeDnsServer {
  zone: Map<string, FakeRecords>;
  /** When set, every query answers SERVFAIL (a resolver outage). */
  failing: boolean;
  server: string;
  close(): Promise<void>;
}

export async function startFakeDns(): Promise<FakeDnsServer> {
  const zone = new Map<string, FakeRecords>();
  const state = { failing: false };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      // The bundled typings want encoder objects; the encoder takes plain records.
      const answers = response.answers as object[];
      const [question] = request.questions;
      const name = question!.name.toLowerCase();
      const records = zone.get(name);
      if (state.failing) {
        response.header.rcode = Packet.RCODE.SERVFAIL;
      } else if (!records) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question!.type === Packet.TYPE.CNAME && records.CNAME) {
        answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: records.CNAME });
      } else if (question!.type === Packet.TYPE.TXT) {
        for (const data of records.TXT ?? []) answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data });
      } else if (question!.type === Packet.TYPE.A) {
        for (const address of records.A ?? []) answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address });
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const address = (server.addresses() as { udp: AddressInfo }).udp;
  return {
    zone,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    server: `127.0.0.1:${address.port}`,
    close: () => server.close(),
  };
}

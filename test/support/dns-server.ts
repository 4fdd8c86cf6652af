// A small authoritative DNS server for tests, on UDP 127.0.0.1 and a random port.
// Point the app at it with `createTestApp({ env: { DNS_SERVERS: dns.address } })`.
//
//   const dns = await startDnsServer();
//   dns.setTxt('example.com', ['formgate-verification=abc']);  // one TXT record
//   dns.setTxt('big.example', [['chunk1', 'chunk2']]);         // one record of two strings
//   dns.setTxt('two.example', ['v=spf1 -all', 'formgate-verification=abc']); // two records
//   dns.setRcode('broken.example', 'SERVFAIL');                // answer with an error code
//   dns.setAddresses('hooks.example', ['203.0.113.7', '::1']);  // A and AAAA records
//   dns.setSilent(true);                                       // never answer (→ client timeout)
//   dns.port; dns.address;                                     // 12345, '127.0.0.1:12345'
//   await dns.close();
//
// Names are case-insensitive and a trailing dot is ignored. A name with no entry answers
// NXDOMAIN; a name set with `setTxt(name, [])` exists but has no TXT record (NOERROR, no
// answers). Answers carry TTL 0, so no resolver caches them between test steps.
import dns2, { type Packet as DnsPacket } from 'dns2';

const { Packet, UDPServer } = dns2;
// DNS response codes (RCODE) of the message header (dns2 does not type its own table).
const RCODE: Record<FailureCode, number> = {
  SERVFAIL: 2,
  NXDOMAIN: 3,
  REFUSED: 5,
};

export type TxtRecord = string | string[];
export type FailureCode = 'SERVFAIL' | 'REFUSED' | 'NXDOMAIN';

export interface DnsQuery {
  name: string;
  type: number;
}

export interface TestDnsServer {
  /** The UDP port on 127.0.0.1. */
  readonly port: number;
  /** `127.0.0.1:<port>`, the value for DNS_SERVERS. */
  readonly address: string;
  /** Every question received so far, in order (cleared by `reset()`). */
  readonly queries: DnsQuery[];
  /**
   * Replaces the TXT records of `name`. Each entry is one record: a string, or an array of
   * strings for a record split into several character-strings (each at most 255 bytes).
   */
  setTxt(name: string, records: TxtRecord[]): void;
  /** Replaces the A / AAAA records of `name` (IPv4 and IPv6 addresses, mixed). */
  setAddresses(name: string, addresses: string[]): void;
  /** Answers every query for `name` with this response code. */
  setRcode(name: string, rcode: FailureCode): void;
  /** Forgets `name`: it answers NXDOMAIN again. */
  remove(name: string): void;
  /** While true, queries are received but never answered. */
  setSilent(silent: boolean): void;
  /** Forgets every name, stops being silent and clears `queries`. */
  reset(): void;
  close(): Promise<void>;
}

type Entry =
  { txt: string[][] } | { addresses: string[] } | { rcode: FailureCode };

function key(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Entry>();
  const queries: DnsQuery[] = [];
  let silent = false;

  const server = new UDPServer();
  server.on('request', (request: DnsPacket, send) => {
    const [question] = request.questions;
    if (!question) return;
    queries.push({ name: question.name, type: question.type });
    if (silent) return;
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const entry = zone.get(key(question.name));
    if (!entry) {
      response.header.rcode = RCODE.NXDOMAIN;
    } else if ('rcode' in entry) {
      response.header.rcode = RCODE[entry.rcode];
    } else if ('addresses' in entry) {
      const v6 = question.type === Packet.TYPE.AAAA;
      if (v6 || question.type === Packet.TYPE.A) {
        for (const address of entry.addresses) {
          if (address.includes(':') !== v6) continue;
          response.answers.push(
            Packet.createResourceFromQuestion(question, {
              type: question.type,
              class: Packet.CLASS.IN,
              ttl: 0,
              address,
            }),
          );
        }
      }
    } else if (question.type === Packet.TYPE.TXT) {
      for (const data of entry.txt) {
        response.answers.push(
          Packet.createResourceFromQuestion(question, {
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 0,
            data,
          }),
        );
      }
    }
    void send(response);
  });
  // A malformed datagram is the client's problem, never a crash of the test run.
  server.on('requestError', () => {});
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();

  return {
    port,
    address: `127.0.0.1:${port}`,
    queries,
    setTxt(name, records) {
      zone.set(key(name), {
        txt: records.map((record) =>
          Array.isArray(record) ? [...record] : [record],
        ),
      });
    },
    setAddresses(name, addresses) {
      zone.set(key(name), { addresses: [...addresses] });
    },
    setRcode(name, rcode) {
      zone.set(key(name), { rcode });
    },
    remove(name) {
      zone.delete(key(name));
    },
    setSilent(value) {
      silent = value;
    },
    reset() {
      zone.clear();
      silent = false;
      queries.length = 0;
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Realistic, reproducible values for seeded submissions: names, emails, companies and
// messages drawn by a seeded pseudo-random generator, shaped by the form's fields.
import type { FieldDefinition } from '../../src/forms/form.entity.js';

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Linus',
  'Frances',
  'Dennis',
  'Radia',
  'Ken',
  'Hedy',
  'Tim',
  'Katherine',
  'Guido',
  'Sophie',
  'John',
  'Annie',
  'Niklaus',
  'Lea',
  'Jürgen',
  'Amélie',
  'Sven',
  'Chloé',
  'Mateo',
  'Yuki',
  'Priya',
  'Omar',
  'Ingrid',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Torvalds',
  'Allen',
  'Ritchie',
  'Perlman',
  'Thompson',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'van Rossum',
  'Wilson',
  'McCarthy',
  'Easley',
  'Wirth',
  'Müller',
  'Dubois',
  'Larsen',
  'García',
  'Tanaka',
  'Sharma',
  'Haddad',
  'Olsen',
  "O'Brien",
  'Nakamura',
];
const COMPANIES = [
  'Northwind Traders',
  'Contoso',
  'Fabrikam',
  'Initech',
  'Globex',
  'Umbrella Health',
  'Stark Logistics',
  'Wayne Foods',
  'Acme Corp',
  'Hooli',
  'Pied Piper',
  'Vandelay Industries',
  'Soylent',
  'Tyrell Systems',
  'Cyberdyne',
  'Wonka Confections',
  'Gringotts',
  'Monsters Inc',
  'Oceanic Air',
  'Blue Sun',
];
const DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'mail.example',
  'corp.example',
];
const OPENINGS = ['Hello,', 'Hi there,', 'Good morning,', 'Dear team,', 'Hey,'];
const SUBJECTS = [
  'I would like a quote for',
  'Could you tell me more about',
  'We are interested in',
  'Please send pricing for',
  'I have a question about',
  'Is there a discount on',
];
const TOPICS = [
  'your annual plan',
  'the enterprise tier',
  'bulk licences',
  'an on-site workshop',
  'the API limits',
  'a partnership',
  'shipping to Europe',
  'the open-source edition',
  'data export options',
  'custom integrations',
];
const CLOSINGS = [
  'Thanks!',
  'Best regards.',
  'Looking forward to your reply.',
  'Cheers.',
  'Kind regards, and have a nice day.',
];
export const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
];
export const ORIGINS = [
  'https://www.example.com',
  'https://shop.example.com',
  'https://example.org',
  null,
];

/** mulberry32: a small, fast, seedable PRNG (quality is plenty for fake data). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONTACT_FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text' },
  { id: 'email', type: 'email' },
  { id: 'company', type: 'text' },
  { id: 'message', type: 'textarea' },
];

export function makeValueGenerator(
  fields: FieldDefinition[],
  rand: () => number,
): () => Record<string, string | number> {
  const pick = <T>(list: readonly T[]): T =>
    list[Math.floor(rand() * list.length)];
  const schema = fields.length > 0 ? fields : CONTACT_FIELDS;
  return () => {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const company = pick(COMPANIES);
    const values: Record<string, string | number> = {};
    for (const field of schema) {
      const id = field.id.toLowerCase();
      switch (field.type) {
        case 'email':
          values[field.id] =
            `${first}.${last}${Math.floor(rand() * 1000)}@${pick(DOMAINS)}`
              .toLowerCase()
              .replace(/[^a-z0-9.@-]/g, '');
          break;
        case 'textarea':
          values[field.id] =
            `${pick(OPENINGS)} ${pick(SUBJECTS)} ${pick(TOPICS)} for ${company}. ${pick(CLOSINGS)}`;
          break;
        case 'number':
          values[field.id] = Math.floor(rand() * 1000);
          break;
        case 'url':
          values[field.id] =
            `https://${company.toLowerCase().replace(/\W+/g, '')}.example`;
          break;
        case 'tel':
          values[field.id] =
            `+1 555 ${String(Math.floor(rand() * 10_000_000)).padStart(7, '0')}`;
          break;
        case 'date':
          values[field.id] = new Date(
            Date.UTC(2025, 0, 1 + Math.floor(rand() * 365)),
          )
            .toISOString()
            .slice(0, 10);
          break;
        case 'select':
          values[field.id] = field.options?.length
            ? pick(field.options)
            : 'other';
          break;
        case 'checkbox':
          values[field.id] = rand() < 0.5 ? 'on' : 'false';
          break;
        default:
          values[field.id] = id.includes('name')
            ? `${first} ${last}`
            : id.includes('company')
              ? company
              : `${pick(TOPICS)}`;
      }
    }
    return values;
  };
}

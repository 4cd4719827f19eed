import { randomFillSync } from 'node:crypto';
import { inboundFeedRecord, type MessageSender } from '../src/messages/message.record.js';

/**
 * Deterministic, realistic-looking rows for the benchmark: the same seed gives the same names,
 * phones and message spread on both engines, so their figures compare like for like.
 */

const FIRST_NAMES = (
  'Anna Ben Carla David Elena Farid Grace Hugo Ines Jamal Karin Liam Maya Noah Olga Pedro Quinn Rosa Samir Tara ' +
  'Umar Vera Wei Ximena Yusuf Zoe Aisha Bruno Chloe Dmitri Emma Felix Giulia Hana Ivan Julia Kenji Lena Mateo Nadia ' +
  'Oscar Priya Rafael Sofia Tomas Uma Victor Wanda Yara Zain Alice Bilal Clara Diego Eva Fatima Gabriel Helena Ibrahim ' +
  'Jonas Kira Lucas Marta Nikolai Olivia Pablo Rania Simon Tess Ugo Valentina William Xavier Yasmin Zofia Adam Beatriz ' +
  'Carlos Daria Ethan Freya George Hiro Isabel Jakob Klara Leon Mila Nora Omar Paula Rami Sara Theo Ursula Vincent ' +
  'Amelia Boris Celine Dario Elif Filip Gemma Hassan Ida Joao Kai Lara Marco Nina Otto Petra Reza Selin Tobias Viola'
).split(' ');

/** Kowalski and Kowalczyk are the two surnames the "kowal" search fragment hits (~1 % of contacts). */
const SURNAMES = (
  'Smith Johnson Garcia Martinez Rodriguez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson ' +
  'Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott ' +
  'Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Muller Schmidt ' +
  'Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Dubois Durand Leroy Moreau Simon Laurent Lefebvre ' +
  'Michel Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Silva Santos Ferreira Pereira ' +
  'Oliveira Costa Almeida Carvalho Nowak Kowalski Wisniewski Wojcik Kowalczyk Kaminski Lewandowski Zielinski ' +
  'Szymanski Novak Horvat Kovacs Nagy Toth Szabo Popescu Ionescu Ivanov Petrov Smirnov Kuznetsov Popov Sokolov ' +
  'Jensen Nielsen Hansen Pedersen Andersen Larsen Johansson Karlsson Nilsson Eriksson Virtanen Korhonen Murphy ' +
  'Kelly OBrien Walsh Byrne Ryan Yilmaz Kaya Demir Sahin Celik Cohen Levi Mizrahi Khan Ali Ahmed Hussain Sharma ' +
  'Patel Singh Kumar Gupta Das Reddy Chen Wang Li Zhang Liu Yang Huang Zhao Wu Zhou Sato Suzuki Takahashi Tanaka ' +
  'Watanabe Ito Yamamoto Nakamura Kim Park Choi Jung Kang Cho Tran Pham Hoang Phan Vu Mensah Okafor Adeyemi Diallo ' +
  'Traore Kamara Mwangi Otieno Haddad Nasser Saleh Mansour Alvarez Romero Navarro Molina Morales Ortiz Delgado ' +
  'Castro Vargas Ramos Reyes Cruz Gomez Diaz Ruiz Jimenez Moreno Munoz Alonso Gutierrez Castillo Fernandez'
).split(' ');

const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'example.org', 'mail.de', 'icloud.com'];

const TEXTS = [
  'Hi, is my order on its way?',
  'Thanks a lot!',
  'Can I change the delivery address?',
  'What time do you open tomorrow?',
  'I would like to book a table for two',
  'Is the blue one still in stock?',
  'Please call me back when you can',
  'The package arrived damaged',
  'Do you ship to Canada?',
  'Perfect, see you then',
  'How much is the annual plan?',
  'Stop sending me promotions',
  'Can you resend the invoice?',
  'Great service, thank you',
  'Where can I find the tracking number?',
];

/** Message types with their share of inbound traffic; mostly text, as on a real WhatsApp line. */
const MESSAGE_TYPES: { type: string; weight: number }[] = [
  { type: 'text', weight: 0.85 },
  { type: 'image', weight: 0.06 },
  { type: 'audio', weight: 0.03 },
  { type: 'location', weight: 0.02 },
  { type: 'reaction', weight: 0.02 },
  { type: 'button', weight: 0.02 },
];

/** mulberry32: a tiny seeded PRNG; Math.random cannot be seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hexOf(bytes: Buffer, from: number, count: number): string {
  let text = '';
  for (let i = from; i < from + count; i++) text += HEX[bytes[i]!]!;
  return text;
}

/**
 * Time-ordered UUIDv7 ids for a given millisecond. The project's generator draws random bytes
 * per id (~22 µs each); this one reads a pre-filled random pool, so a million ids cost ~0.5 s.
 */
export function createUuidV7(): (ms: number) => string {
  const pool = Buffer.alloc(8 * 65536);
  let offset = pool.length;
  let lastMs = -1;
  let sequence = 0;
  return (ms) => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    sequence = ms === lastMs ? (sequence + 1) & 0xfff : 0;
    lastMs = ms;
    const time = ms.toString(16).padStart(12, '0');
    const r = offset;
    offset += 8;
    return (
      `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-` +
      `${HEX[(pool[r]! & 0x3f) | 0x80]!}${hexOf(pool, r + 1, 1)}-${hexOf(pool, r + 2, 6)}`
    );
  };
}

export interface ContactRecord {
  id: string;
  phone: string;
  name: string | null;
  email: string | null;
  customAttributes: string;
  optedOutAt: string | null;
  lastMessageAt: string | null;
  createdAt: string;
}

export interface MessageRecord {
  id: string;
  contactId: string;
  type: string;
  content: string;
  providerMessageId: string;
  createdAt: string;
  /** The new-message-received record Parley stores with an inbound message. */
  feedRecord: string;
}

const DAY_MS = 86_400_000;
/** Phones are +1 <area> <7 digits>: the digits run over 2000000-9999999 in a scattered order. */
const PHONE_SPAN = 8_000_000;
const PHONE_STRIDE = 7919; // prime, so i -> i * stride mod span is a bijection: unique numbers

/** The E.164 phone of contact `index` of a workspace whose numbers use area code `area`. */
export function phoneFor(area: number, index: number): string {
  if (index >= PHONE_SPAN) throw new Error(`at most ${PHONE_SPAN} contacts per workspace`);
  return `+1${area}${2_000_000 + ((index * PHONE_STRIDE) % PHONE_SPAN)}`;
}

/** One workspace's worth of data: contacts first (they are referenced), then messages. */
export class WorkspaceDataset {
  readonly contactIds: string[];
  /** Each contact's details, which its messages' feed records carry. */
  private readonly senders: MessageSender[];
  /** Newest message time per contact (ms), 0 when never messaged. */
  private readonly lastMessageMs: Float64Array;
  private readonly messageContact: Uint32Array;
  private readonly random: () => number;
  private readonly newId = createUuidV7();

  constructor(readonly spec: { seed: number; area: number; contacts: number; messages: number; endMs: number }) {
    this.random = seededRandom(spec.seed);
    this.contactIds = new Array<string>(spec.contacts);
    this.senders = new Array<MessageSender>(spec.contacts);
    this.lastMessageMs = new Float64Array(spec.contacts);
    this.messageContact = new Uint32Array(spec.messages);
    this.planMessages();
  }

  /** Messages spread evenly over the last year, each from a random contact (~37 % never write). */
  private planMessages(): void {
    const { contacts, messages } = this.spec;
    if (messages > 0 && contacts === 0) throw new Error('messages need contacts');
    for (let m = 0; m < messages; m++) {
      const contact = Math.floor(this.random() * contacts);
      this.messageContact[m] = contact;
      this.lastMessageMs[contact] = Math.max(this.lastMessageMs[contact]!, this.messageMs(m));
    }
  }

  private messageMs(index: number): number {
    const span = 365 * DAY_MS;
    return this.spec.endMs - span + Math.floor(((index + 1) * span) / (this.spec.messages + 1));
  }

  /** Contacts were created over the two years before now, in index order. */
  contact(index: number): ContactRecord {
    const { endMs, contacts, area } = this.spec;
    const createdMs = endMs - 2 * 365 * DAY_MS + Math.floor((index * 365 * DAY_MS) / Math.max(1, contacts));
    const id = this.newId(createdMs);
    this.contactIds[index] = id;
    const first = pick(FIRST_NAMES, this.random);
    const last = pick(SURNAMES, this.random);
    const hasName = this.random() >= 0.03;
    const hasEmail = this.random() < 0.7;
    const lastMs = this.lastMessageMs[index]!;
    const sender: MessageSender = {
      id,
      phone: phoneFor(area, index),
      name: hasName ? `${first} ${last}` : null,
      email: hasEmail ? `${first}.${last}${index}@${pick(DOMAINS, this.random)}`.toLowerCase() : null,
    };
    this.senders[index] = sender;
    return {
      ...sender,
      customAttributes: this.random() < 0.2 ? JSON.stringify({ plan: 'pro', source: 'import' }) : '{}',
      optedOutAt: this.random() < 0.01 ? new Date(createdMs + DAY_MS).toISOString() : null,
      lastMessageAt: lastMs > 0 ? new Date(lastMs).toISOString() : null,
      createdAt: new Date(createdMs).toISOString(),
    };
  }

  /** Inbound message `index`; call after every contact() so the contact ids exist. */
  message(index: number): MessageRecord {
    const ms = this.messageMs(index);
    const type = this.messageType();
    const sender = this.senders[this.messageContact[index]!]!;
    const message = {
      id: this.newId(ms),
      type,
      content: JSON.stringify(this.messageContent(type, index)),
      provider_message_id: `wamid.bench${this.spec.seed}x${index}`,
      created_at: new Date(ms).toISOString(),
    };
    return {
      id: message.id,
      contactId: sender.id,
      type,
      content: message.content,
      providerMessageId: message.provider_message_id,
      createdAt: message.created_at,
      feedRecord: inboundFeedRecord(message, sender),
    };
  }

  private messageType(): string {
    let roll = this.random();
    for (const { type, weight } of MESSAGE_TYPES) {
      roll -= weight;
      if (roll < 0) return type;
    }
    return 'text';
  }

  private messageContent(type: string, index: number): Record<string, unknown> {
    switch (type) {
      case 'image':
        return { id: `media${index}`, mime_type: 'image/jpeg', caption: pick(TEXTS, this.random) };
      case 'audio':
        return { id: `media${index}`, mime_type: 'audio/ogg', voice: true };
      case 'location':
        return { latitude: 52.52 + this.random(), longitude: 13.4 + this.random(), name: 'Pickup point' };
      case 'reaction':
        return { message_id: `wamid.out${index}`, emoji: '👍' };
      case 'button':
        return { payload: 'CONFIRM', text: 'Yes, confirm' };
      default:
        return { body: `${pick(TEXTS, this.random)} (#${index % 10_000})` };
    }
  }
}

/** The surname fragment and the phone-fragment searches the benchmark runs. */
export const NAME_QUERY = 'kowal';

/**
 * What a user types into the search box: 3–4 letter fragments of the dataset's real first names,
 * surnames and email domains, from the start and the middle of each word (search as you type).
 */
export function searchFragments(): string[] {
  const fragments = new Set<string>();
  const words = [...SURNAMES.filter((_, i) => i % 9 === 0), ...FIRST_NAMES.filter((_, i) => i % 13 === 0)];
  for (const [i, word] of words.entries()) {
    const lower = word.toLowerCase();
    const length = i % 2 === 0 ? 3 : 4;
    const from = i % 3 === 0 ? Math.max(0, Math.floor((lower.length - length) / 2)) : 0;
    if (lower.length >= length) fragments.add(lower.slice(from, from + length));
  }
  for (const domain of DOMAINS.slice(0, 3)) fragments.add(domain.slice(0, 4));
  return [...fragments];
}

/** A tag held by a share of the measured workspace's contacts. */
export interface BenchTag {
  name: string;
  share: number;
}

/** The tag searches the issue names: one held by 60 % of contacts, one by 1 %. */
export const BENCH_TAGS = { common: { name: 'customer', share: 0.6 }, rare: { name: 'vip', share: 0.01 } } as const;

/**
 * Contacts hold a tag when the last three hex digits of their id (random in a UUIDv7) fall below this
 * bound: the same SQL selects about `share` of the contacts on either engine.
 */
export function tagHexBound(share: number): string {
  return Math.round(share * 4096)
    .toString(16)
    .padStart(3, '0');
}

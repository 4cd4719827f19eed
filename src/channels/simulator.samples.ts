import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FetchedMedia } from './provider.js';

/**
 * The files a simulated customer can send (assets/simulator/, made by scripts/make-simulator-samples.ts),
 * so a team sees every kind of message in the inbox without Meta.
 */
export const SIMULATOR_SAMPLES = {
  image: { file: 'flowers.png', mimeType: 'image/png' },
  document: { file: 'order.pdf', mimeType: 'application/pdf', filename: 'order-1042.pdf' },
  audio: { file: 'voice-note.mp3', mimeType: 'audio/mpeg' },
} as const;

export type SampleKind = keyof typeof SIMULATOR_SAMPLES;
export const SAMPLE_KINDS = Object.keys(SIMULATOR_SAMPLES) as SampleKind[];

const FOLDER = new URL('../../assets/simulator/', import.meta.url);
const MEDIA_ID = /^simulated_(image|document|audio)_[0-9a-f-]{36}$/;

/**
 * The media id a simulated message names, as Meta's would: each message its own id (the media store
 * keys files by it), with the sample it stands for inside, so the simulator channel can serve it.
 */
export const sampleMediaId = (kind: SampleKind, id: string) => `simulated_${kind}_${id}`;

/** The sample a simulated media id stands for; null for any other id. */
export function sampleOf(mediaId: string): SampleKind | null {
  return (MEDIA_ID.exec(mediaId)?.[1] as SampleKind | undefined) ?? null;
}

/** A sample's bytes, type and SHA-256, as the channel's download hands them over. */
export async function readSample(kind: SampleKind): Promise<FetchedMedia> {
  const sample = SIMULATOR_SAMPLES[kind];
  const bytes = await readFile(new URL(sample.file, FOLDER));
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), mimeType: sample.mimeType };
}

/**
 * Every wire shape the property tests know, keyed by its format's name: the core readers' own
 * (hostile.ts CORE_WIRE_FORMATS) and each named producer's, found by scanning producers/<name>/
 * for a shape.ts beside a format.ts or a declaration.json: a new producer's shape is picked up without
 * a list to edit. A shape is keyed by the name of the Format its folder's format.ts exports, so a
 * shape can only stand for the parser beside it; a built-in declaration's format is named by its
 * folder (core/formats/index.ts `builtInDeclaration`).
 */

import { existsSync, readdirSync } from 'node:fs';

import fc from 'fast-check';

import type { Format } from '../src/core/model.js';
import { CORE_WIRE_FORMATS, hostileValue, sseText } from './hostile.js';

const PRODUCERS = new URL('../../producers/', import.meta.url);

const isFormat = (value: unknown): value is Format =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Format).name === 'string' &&
  typeof (value as Format).extract === 'function';

async function producerShapes(): Promise<Record<string, fc.Arbitrary<unknown>>> {
  const shapes: Record<string, fc.Arbitrary<unknown>> = {};
  for (const folder of readdirSync(PRODUCERS).sort()) {
    const shapeFile = new URL(`${folder}/shape.ts`, PRODUCERS);
    const parserFile = new URL(`${folder}/format.ts`, PRODUCERS);
    if (!existsSync(shapeFile)) continue;
    const { shape } = await import(shapeFile.href);
    if (existsSync(new URL(`${folder}/declaration.json`, PRODUCERS))) {
      shapes[folder] = shape as fc.Arbitrary<unknown>;
      continue;
    }
    if (!existsSync(parserFile)) continue;
    const format = Object.values((await import(parserFile.href)) as Record<string, unknown>).find(isFormat);
    if (format) shapes[format.name] = shape as fc.Arbitrary<unknown>;
  }
  return shapes;
}

/** One generator per format, keyed by its name (properties.test.ts asks one of each registered format). */
export const WIRE_FORMATS: Record<string, fc.Arbitrary<unknown>> = {
  ...CORE_WIRE_FORMATS,
  ...(await producerShapes()),
};

export const anyWirePayload: fc.Arbitrary<unknown> = fc.oneof(...Object.values(WIRE_FORMATS));

/** What a page may hand the core: a body, chunks, SSE text, or anything else. */
export const anyPayload: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyWirePayload },
  { weight: 1, arbitrary: hostileValue },
  { weight: 1, arbitrary: fc.array(anyWirePayload, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(anyWirePayload, { maxLength: 4 }), fc.nat(30), fc.boolean())
      .map(([chunks, cut, crlf]) => sseText(chunks, cut, crlf)),
  },
);

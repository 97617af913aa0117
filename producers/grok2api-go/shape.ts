/** The wire shape of format grok2api-go (format.ts) for the core's property tests (core/properties.test.ts). */

import type fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), { citations: wire.listOf(wire.url) });

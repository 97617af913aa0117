/** The wire shape of format grok2api-go (format.ts) for the core's property tests (core/properties.test.ts). */

import type fc from 'fast-check';

import { chatBody, chatMessage, listOf, url } from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), { citations: listOf(url) });

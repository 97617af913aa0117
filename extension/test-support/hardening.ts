/** What the hardening scenarios predict (producers/<name>/hostile.yaml `hostile:`, malformed*.yaml
 * `malformed:`) and the payloads the hostile twins carry, as scripts/hardening_checks.py writes them from
 * those files (tests/mock/test_hardening_scenarios.py fails while the copy is stale). */

import { readFileSync } from 'node:fs';

/** How the hostile twin is asked for, and what it predicts of the answer (mock_server/scenarios.py HostileChecks). */
export interface HostileChecks {
  stream: boolean;
  buttons: 'as the markers say' | 'none' | 'not predicted';
  titles: 'payloads' | 'not payloads';
}

/** The extension's console warnings for the answer, and the sources it lists (MalformedChecks). */
export interface MalformedChecks {
  warnings: number;
  listed: number;
}

export const HARDENING = JSON.parse(readFileSync(new URL('fixtures/hardening.json', import.meta.url), 'utf8')) as {
  payloads: string[];
  hostile: Record<string, HostileChecks>;
  malformed: Record<string, MalformedChecks>;
};

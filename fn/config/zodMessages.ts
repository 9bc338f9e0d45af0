/**
 * zod/mini registers no locale: without one, every issue zod words itself (e.g. `expected number,
 * received string`) reads only "Invalid input". Full zod registers its English locale when the
 * first schema is built (colinhacks/zod packages/zod/src/v4/classic/schemas.ts@v4.6.7, "Register
 * English as the default locale on first ZodType construction"); the mini build leaves it to the
 * caller. The config's messages stay the ones full zod gave (test/config,
 * test/engine/messages.test.ts).
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

let configured = false;

/** Makes zod word its issues in English; called before the first schema is built. */
export function useEnglishMessages(): void {
  if (configured) return;
  z.config(en());
  configured = true;
}

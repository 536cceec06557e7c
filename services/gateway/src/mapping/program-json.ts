import type { z } from 'zod';
import type { ProgramConfiguration, Theme, Webhook } from '../endpoints/program-responses';

/**
 * The JSON shapes of the program endpoints' replies, as their schemas (endpoints/program-responses.ts) describe
 * them; the settings bodies are the admin program definitions' (endpoints/admin-programs.ts).
 */

export type ThemeJson = z.input<typeof Theme>;
export type ProgramJson = z.input<typeof ProgramConfiguration>;
export type WebhookJson = z.input<typeof Webhook>;

import type { Generated } from 'kysely';
import type { CreatedAt, Environment } from './schema-columns.ts';

// Feedback sent through the API and MCP (core routers/feedback.ts).

export interface FeedbackTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  user_id: number;
  api_key_id: number | null;
  kind: string;
  message: string;
  source: string;
  created_at: CreatedAt;
}

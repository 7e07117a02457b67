// A webhook endpoint: its row and its public object (the secret only on creation and rotation).

import type { WebhookEndpoint } from '@paygrid/contracts';

export interface EndpointRow {
  id: string;
  account_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export function serializeEndpoint(row: EndpointRow, withSecret = false): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint' as const,
    livemode: row.livemode,
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    status: row.status,
    disabled_reason: row.disabled_reason,
    ...(withSecret ? { secret: row.secret } : {}),
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

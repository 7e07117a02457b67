// One answered /v1 request of an authenticated account, as the gateway notes it and sends it
// in batches to the webhooks service (POST /internal/request-log), which keeps and serves it
// (docs/api.md, "Request log"). Both sides use this one type: the gateway's shipper builds it,
// and the webhooks service's batch schema is typed against it.

export interface RequestLogNote {
  account: string;
  livemode: boolean;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  created_at: string;
}

// What an audit row means to a guardian, read from its stored action name and details line (the
// gate writes `[channel ]METHOD /api/path -> status`, refusals `code: message`): the table shows
// this, the raw line stays behind a disclosure for whoever needs it.
import { PERMISSION_NAMES } from "@/lib/ai/permissions";

/** Actions that are not a permission's name, with their key in the AuditView catalog namespace. */
const OTHER_ACTIONS: Record<string, string> = {
  "auth.login": "action_auth_login",
  "auth.logout": "action_auth_logout",
  "auth.session_replaced": "action_auth_session_replaced",
  rate_limited: "action_rate_limited",
  "mcp.request": "action_mcp_request",
};

export type ActionLabel = { namespace: "Permissions" | "AuditView"; key: string } | { raw: string };

export function actionLabel(action: string): ActionLabel {
  if ((PERMISSION_NAMES as readonly string[]).includes(action)) return { namespace: "Permissions", key: action.replace(/\./g, "_") };
  if (OTHER_ACTIONS[action]) return { namespace: "AuditView", key: OTHER_ACTIONS[action] };
  if (action.endsWith(".approval_requested")) return { namespace: "AuditView", key: "action_approval_requested" };
  return { raw: action };
}

export type Described = {
  /** What was acted on: the resource path without the /api prefix, or the WebSocket endpoint. */
  target: string | null;
  channel: "mcp" | "socket" | "page" | "auth" | "system" | null;
  status: number | null;
  /** A refusal's reason as the server worded it (`code: message` -> message). */
  reason: string | null;
};

const HTTP_LINE = /^(?:(mcp|socket|page|auth|system) )?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|WS) (\S+)(?: -> (\d{3}))?/;
const REFUSAL = /^([a-z_]+): (.+)$/s;

export function describeDetails(details: string): Described {
  const http = HTTP_LINE.exec(details);
  if (http) {
    const [, channel, , path, status] = http;
    return {
      target: path!.replace(/^\/api(?=\/)/, "").split("?")[0]!,
      channel: (channel as Described["channel"]) ?? null,
      status: status ? Number(status) : null,
      reason: null,
    };
  }
  const refusal = REFUSAL.exec(details);
  return { target: null, channel: null, status: null, reason: refusal ? refusal[2]! : details || null };
}

"use client";

// The browser side of /ws/chat (contract 5): authenticated by the session cookie on the upgrade,
// reconnecting with backoff; the page reloads history after every reconnect so nothing is lost.
export type ChatFrame =
  | { type: "ready"; userId: string }
  | { type: "message"; id: string; conversationId: string; from: string; content: string; sentByAI: boolean; createdAt: string }
  | { type: "ack"; id: string; conversationId: string }
  | { type: "error"; code: string; message: string }
  | { type: "notification"; id: string; kind: string; subjectId: string; title: string }
  | { type: "pong" };

export type ChatStatus = "connecting" | "online" | "offline";

export function connectChat(onFrame: (f: ChatFrame) => void, onStatus: (s: ChatStatus) => void): { send: (frame: object) => boolean; close: () => void } {
  let ws: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;

  const open = () => {
    onStatus("connecting");
    const url = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/ws/chat`;
    ws = new WebSocket(url);
    ws.onmessage = (e) => {
      let frame: ChatFrame;
      try {
        frame = JSON.parse(String(e.data)) as ChatFrame;
      } catch {
        return;
      }
      if (frame.type === "ready") {
        attempt = 0;
        onStatus("online");
      }
      onFrame(frame);
    };
    ws.onclose = (e) => {
      clearInterval(ping);
      onStatus("offline");
      // 4401: signed out or revoked; reconnecting would not help.
      if (closed || e.code === 4401) return;
      attempt++;
      timer = setTimeout(open, Math.min(15_000, 500 * 2 ** Math.min(attempt, 5)));
    };
    ws.onopen = () => {
      ping = setInterval(() => ws?.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })), 25_000);
    };
  };
  open();
  return {
    send(frame) {
      if (ws?.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(frame));
      return true;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(ping);
      ws?.close();
    },
  };
}

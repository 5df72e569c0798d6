// Every operation module (./list.ts collects the operations from these exports).
export * from "./accounts";
export * from "./nextauth";
export * from "./system";
export * from "./ai";
export * from "./booths";
export * from "./products";
export * from "./catalog";
export * from "./uploads";
export * from "./trade";
export * from "./community";
export * from "./seller";
export * from "./chat";
export * from "./keys";
export * from "./admin";
export * from "./money";
export * from "./mcp";
export * from "./notifications";

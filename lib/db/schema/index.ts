export * from "./users";
export * from "./ai";
export * from "./catalog";
export * from "./trade";
export * from "./chat";
export * from "./community";
export * from "./infra";
export * from "./money";

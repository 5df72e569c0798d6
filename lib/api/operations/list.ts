// Every operation, read from the operation modules' exports (no registration by import side effect):
// the OpenAPI document, the /api-less aliases and the tests walk this list.
import type { Operation } from "../operation";
import * as modules from "./index";

const isOperation = (v: unknown): v is Operation => typeof v === "object" && v !== null && "operationId" in v && "method" in v && "path" in v;

const OPERATIONS: readonly Operation[] = (Object.values(modules) as unknown[]).filter(isOperation);

export function allOperations(): Operation[] {
  return [...OPERATIONS];
}

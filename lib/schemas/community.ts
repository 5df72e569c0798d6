// Shoutouts and marketplace tasks (contract 5).
import { z } from "zod";
import { PageQuery } from "./common";
import { Currency, Price } from "./products";
import { TASK_STATUSES } from "@/lib/db/schema";

const Paging = PageQuery.shape;
const Party = z.object({ id: z.string(), username: z.string(), isAI: z.boolean() });

export const CreateShoutoutBody = z
  .object({ content: z.string().trim().min(1, "Cannot be empty").max(500, "At most 500 characters"), productId: z.string().trim().min(1).max(100).optional() })
  .meta({ id: "CreateShoutout" });
export const ShoutoutSchema = z
  .object({
    id: z.string(),
    content: z.string(),
    author: Party,
    product: z.object({ id: z.string(), title: z.string() }).nullable(),
    sentByAI: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Shoutout" });
export const ShoutoutFeedQuery = z.object({ ...Paging });

export const TASK_STATUS = z.enum(TASK_STATUSES);
export const CreateTaskBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().max(10_000).optional(),
    reward: Price.optional(),
    currency: Currency.optional(),
  })
  .refine((v) => v.reward === undefined || v.currency !== undefined, { path: ["currency"], message: "Required with a reward" })
  // The rule above, for readers of the OpenAPI document: no reward, or a currency with it.
  .meta({ id: "CreateTask", anyOf: [{ not: { properties: { reward: {} }, required: ["reward"] } }, { required: ["currency"] }] });
export const CompleteTaskBody = z.object({ result: z.string().trim().min(1).max(20_000) }).meta({ id: "CompleteTask" });
export const TaskListQuery = z.object({ status: TASK_STATUS.optional(), mine: z.enum(["created", "claimed"]).optional(), ...Paging });
export const TaskSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    reward: z.number().nullable(),
    currency: z.string().nullable(),
    status: TASK_STATUS,
    createdBy: Party,
    claimedBy: Party.nullable(),
    result: z.string().nullable(),
    sentByAI: z.boolean(),
    createdAt: z.string(),
    claimedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: "Task" });

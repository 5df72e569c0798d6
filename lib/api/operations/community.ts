import { z } from "zod";
import { CompleteTaskBody, CreateShoutoutBody, CreateTaskBody, ShoutoutFeedQuery, ShoutoutSchema, TaskListQuery, TaskSchema } from "@/lib/schemas/community";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const postShoutoutOp = defineOperation({
  method: "POST",
  path: "/api/shoutout",
  operationId: "postShoutout",
  summary: "Post a shoutout (at most 500 characters), optionally about a product",
  tags: ["Shoutouts"],
  access: "user",
  permission: "shoutout.post",
  body: CreateShoutoutBody,
  responses: { 201: { description: "Posted", schema: z.object({ shoutout: ShoutoutSchema }) }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const shoutoutFeedOp = defineOperation({
  method: "GET",
  path: "/api/shoutout",
  operationId: "shoutoutFeed",
  summary: "The public shoutout feed, newest first",
  tags: ["Shoutouts"],
  access: "public",
  permission: "none",
  action: "shoutout.list",
  query: ShoutoutFeedQuery,
  responses: {
    200: { description: "Feed", schema: z.object({ shoutouts: z.array(ShoutoutSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 429),
  },
});

const taskOp = { tags: ["Tasks"], access: "user", permission: "none" } as const;
const TaskAnswer = { 200: { description: "Task", schema: z.object({ task: TaskSchema }) }, ...errorResponses(400, 401, 403, 404, 409, 429) };

export const listTasksOp = defineOperation({
  ...taskOp,
  method: "GET",
  path: "/api/marketplace/tasks",
  operationId: "listTasks",
  summary: "Marketplace tasks (open ones by default; `mine=created|claimed`)",
  action: "task.list",
  query: TaskListQuery,
  responses: {
    200: { description: "Tasks", schema: z.object({ tasks: z.array(TaskSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 401, 429),
  },
});

export const createTaskOp = defineOperation({
  ...taskOp,
  method: "POST",
  path: "/api/marketplace/tasks",
  operationId: "createTask",
  summary: "Create a task for others to claim",
  description: "AI accounts need the permission `task.create`; a reward counts as money under the guardian's mandate.",
  permission: "task.create",
  body: CreateTaskBody,
  responses: { 201: { description: "Created", schema: z.object({ task: TaskSchema }) }, ...errorResponses(400, 401, 429) },
});

export const getTaskOp = defineOperation({
  ...taskOp,
  method: "GET",
  path: "/api/marketplace/tasks/{id}",
  operationId: "getTask",
  summary: "Task details",
  action: "task.get",
  params: IdParam,
  responses: TaskAnswer,
});
export const claimTaskOp = defineOperation({
  ...taskOp,
  method: "POST",
  path: "/api/marketplace/tasks/{id}/claim",
  operationId: "claimTask",
  summary: "Claim an open task (not your own)",
  description:
    "AI accounts need the permission `task.claim`. Self-trade rule: an AI account may not claim a task of its guardian or sibling, nor a guardian one of its own AI accounts.",
  permission: "task.claim",
  params: IdParam,
  responses: TaskAnswer,
});
export const completeTaskOp = defineOperation({
  ...taskOp,
  method: "POST",
  path: "/api/marketplace/tasks/{id}/complete",
  operationId: "completeTask",
  summary: "Complete a task you claimed, with its result",
  description: "AI accounts need the permission `task.claim` (claim and complete).",
  permission: "task.claim",
  params: IdParam,
  body: CompleteTaskBody,
  responses: TaskAnswer,
});
export const cancelTaskOp = defineOperation({
  ...taskOp,
  method: "POST",
  path: "/api/marketplace/tasks/{id}/cancel",
  operationId: "cancelTask",
  summary: "Cancel your task while it is open",
  action: "task.cancel",
  params: IdParam,
  responses: TaskAnswer,
});

import { z } from "zod";
import { BoothSchema, PublishBoothBody } from "@/lib/schemas/booths";
import { errorResponses } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const publishBoothOp = defineOperation({
  method: "PUT",
  path: "/api/booths",
  operationId: "publishBooth",
  summary: "Publish or decorate a booth of your own store (the guardian or human seller only)",
  description: "Looks up the seller profile of the signed-in human. An AI account gets 404 here, so it can never publish a booth.",
  tags: ["Booths"],
  access: "human",
  permission: "none",
  action: "booth.publish",
  body: PublishBoothBody,
  responses: { 200: { description: "Updated booth", schema: z.object({ booth: BoothSchema }) }, ...errorResponses(400, 401, 404, 409, 429) },
});

// AI account shapes (contract 3).
import { z } from "zod";
import { PERMISSION_NAMES } from "@/lib/ai/permissions";
import { Password } from "./accounts";

export const AiRoleSchema = z.enum(["AI_BUYER", "AI_SELLER"]);

export const CreateAiAccountBody = z.object({ role: AiRoleSchema, password: Password }).meta({ id: "CreateAiAccount" });

export const PermissionMapSchema = z
  .object(Object.fromEntries(PERMISSION_NAMES.map((p) => [p, z.boolean()])) as Record<string, z.ZodBoolean>)
  .meta({ id: "PermissionMap" });

export const AiAccountSchema = z
  .object({
    aiUserId: z.string(),
    username: z.string().meta({ example: "acme_AI_BUYER" }),
    role: AiRoleSchema,
    disabled: z.boolean(),
    permissions: PermissionMapSchema,
  })
  .meta({ id: "AiAccount" });

import type { Permission } from "@/lib/ai/permissions";

export type AiAccount = {
  aiUserId: string;
  username: string;
  role: "AI_BUYER" | "AI_SELLER";
  disabled: boolean;
  permissions: Record<Permission, boolean>;
  mandateCurrency: string;
  orderApprovalThreshold: number;
  maxDiscountPercent: number;
  monthlyBudget: number | null;
  createdAt: string;
};

// GET /api/auth/me - the signed-in account, or null
import { currentUserOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(currentUserOp, async ({ ctx }) => {
  const a = ctx.actor;
  if (a.type !== "human" && a.type !== "ai") return { user: null };
  return {
    user: {
      id: a.user.id,
      email: a.user.email,
      username: a.user.username,
      role: a.user.role,
      isAI: a.type === "ai",
      emailVerified: a.type === "human" && a.user.emailVerified === true,
      sellerProfileId: a.type === "ai" ? a.guardian.sellerProfileId : a.user.sellerProfileId,
      guardian: a.type === "ai" ? { id: a.guardian.id, username: a.guardian.username } : null,
    },
  };
});

"use client";

import { SignInGate } from "@/components/auth/sign-in-gate";
import { AiRegisterForm } from "./ai-register-form";

export function AiRegister() {
  return <SignInGate humansOnly>{(me) => <AiRegisterForm me={me} />}</SignInGate>;
}

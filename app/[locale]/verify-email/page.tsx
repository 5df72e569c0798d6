import { getTranslations, setRequestLocale } from "next-intl/server";
import { VerifyEmail } from "@/components/auth/password-reset";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("PasswordReset", "verifyTitle", "/verify-email", { index: false });

// Static (prerendered per locale): the token is read from the address in the browser.
export default withClientMessages(["ApiClient", "PasswordReset"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("PasswordReset");
  return (
    <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold">{t("verifyTitle")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("verifySubtitle")}</p>
      <VerifyEmail />
    </div>
  );
});

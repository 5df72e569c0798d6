import { getTranslations, setRequestLocale } from "next-intl/server";
import { AccountEmail } from "@/components/auth/account-email";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Nav", "account", "/settings", { index: false });

// The account page: the e-mail address, its verified badge and "resend the link" (read in the browser).
export default withClientMessages(["ApiClient", "Nav", "PasswordReset"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const [t, tn] = await Promise.all([getTranslations("PasswordReset"), getTranslations("Nav")]);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-3xl font-bold">{tn("account")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("accountSubtitle")}</p>
      <AccountEmail />
    </div>
  );
});

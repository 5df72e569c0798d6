import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "Auth" });
  return { title: t("signInTitle"), alternates: alternates(locale, "/sign-in"), robots: { index: false } };
}

// Static (prerendered per locale): nothing here depends on the request.
export default withClientMessages(["Auth", "PasswordReset"], async function SignInPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Auth");
  return (
    <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="text-2xl font-bold">{t("signInTitle")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("signInSubtitle")}</p>
      <SignInForm />
    </div>
  );
});

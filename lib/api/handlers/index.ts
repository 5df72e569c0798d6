// Every API handler module: the one table the dispatcher (lib/server/api-router.ts), the route files
// in app/api (which re-export them for Next) and the MCP tools (lib/mcp/tools.ts) are served from.
// Each handler carries its operation (route() attaches it), so paths come from the operations.
import * as accountsCreate from "./accounts-create";
import * as adminFxRates from "./admin-fx-rates";
import * as adminRateTiers from "./admin-rate-tiers";
import * as aiAccounts from "./ai-accounts";
import * as aiApprovalsIdApprove from "./ai-approvals-id-approve";
import * as aiApprovalsIdReject from "./ai-approvals-id-reject";
import * as aiApprovals from "./ai-approvals";
import * as aiAuditLogs from "./ai-audit-logs";
import * as aiMe from "./ai-me";
import * as aiPermissions from "./ai-permissions";
import * as analyticsDownloads from "./analytics-downloads";
import * as analyticsInquiries from "./analytics-inquiries";
import * as analyticsViews from "./analytics-views";
import * as authDelegateLogin from "./auth-delegate-login";
import * as authLogin from "./auth-login";
import * as authLogout from "./auth-logout";
import * as authMe from "./auth-me";
import * as authPasswordReset from "./auth-password-reset";
import * as authPasswordResetConfirm from "./auth-password-reset-confirm";
import * as authVerifyEmail from "./auth-verify-email";
import * as authVerifyEmailResend from "./auth-verify-email-resend";
import * as boothsId from "./booths-id";
import * as booths from "./booths";
import * as brochuresIdDownload from "./brochures-id-download";
import * as buyerInquiriesIdClose from "./buyer-inquiries-id-close";
import * as buyerInquiries from "./buyer-inquiries";
import * as buyerRequirementsIdClose from "./buyer-requirements-id-close";
import * as buyerRequirements from "./buyer-requirements";
import * as categories from "./categories";
import * as categoriesTree from "./categories-tree";
import * as chatConversationsIdRead from "./chat-conversations-id-read";
import * as chatConversations from "./chat-conversations";
import * as chatMessagesConversationId from "./chat-messages-conversationId";
import * as chatMessages from "./chat-messages";
import * as exhibitionsId from "./exhibitions-id";
import * as exhibitions from "./exhibitions";
import * as fxRates from "./fx-rates";
import * as health from "./health";
import * as keysId from "./keys-id";
import * as keys from "./keys";
import * as marketplaceTasksIdCancel from "./marketplace-tasks-id-cancel";
import * as marketplaceTasksIdClaim from "./marketplace-tasks-id-claim";
import * as marketplaceTasksIdComplete from "./marketplace-tasks-id-complete";
import * as marketplaceTasksId from "./marketplace-tasks-id";
import * as marketplaceTasks from "./marketplace-tasks";
import * as notifications from "./notifications";
import * as notificationsRead from "./notifications-read";
import * as notificationsUnreadCount from "./notifications-unread-count";
import * as openapi from "./openapi";
import * as requirementsIdQuotes from "./requirements-id-quotes";
import * as buyerRequirementsIdQuotes from "./buyer-requirements-id-quotes";
import * as offers from "./offers";
import * as offersId from "./offers-id";
import * as offersIdCounter from "./offers-id-counter";
import * as offersIdDecline from "./offers-id-decline";
import * as offersIdAccept from "./offers-id-accept";
import * as ordersIdCancel from "./orders-id-cancel";
import * as ordersIdConfirm from "./orders-id-confirm";
import * as ordersIdFulfill from "./orders-id-fulfill";
import * as ordersId from "./orders-id";
import * as orders from "./orders";
import * as productsId from "./products-id";
import * as products from "./products";
import * as productsSearch from "./products-search";
import * as publicBooths from "./public-booths";
import * as requirements from "./requirements";
import * as sellerBrochures from "./seller-brochures";
import * as sellerDashboard from "./seller-dashboard";
import * as sellerInquiriesIdRespond from "./seller-inquiries-id-respond";
import * as sellerInquiries from "./seller-inquiries";
import * as sellerProfile from "./seller-profile";
import * as sellerSettings from "./seller-settings";
import * as sellersId from "./sellers-id";
import * as sellersPublic from "./sellers-public";
import * as sellers from "./sellers";
import * as shoutout from "./shoutout";
import * as storesId from "./stores-id";
import * as upload from "./upload";
import * as userPassword from "./user-password";
import * as userProfile from "./user-profile";

export const HANDLER_MODULES = [
  accountsCreate,
  adminFxRates,
  adminRateTiers,
  aiAccounts,
  aiApprovalsIdApprove,
  aiApprovalsIdReject,
  aiApprovals,
  aiAuditLogs,
  aiMe,
  aiPermissions,
  analyticsDownloads,
  analyticsInquiries,
  analyticsViews,
  authDelegateLogin,
  authLogin,
  authLogout,
  authMe,
  authPasswordReset,
  authPasswordResetConfirm,
  authVerifyEmail,
  authVerifyEmailResend,
  boothsId,
  booths,
  brochuresIdDownload,
  buyerInquiriesIdClose,
  buyerInquiries,
  buyerRequirementsIdClose,
  buyerRequirements,
  categories,
  categoriesTree,
  chatConversationsIdRead,
  chatConversations,
  chatMessagesConversationId,
  chatMessages,
  exhibitionsId,
  exhibitions,
  fxRates,
  health,
  keysId,
  keys,
  marketplaceTasksIdCancel,
  marketplaceTasksIdClaim,
  marketplaceTasksIdComplete,
  marketplaceTasksId,
  marketplaceTasks,
  notifications,
  notificationsRead,
  notificationsUnreadCount,
  openapi,
  requirementsIdQuotes,
  buyerRequirementsIdQuotes,
  offers,
  offersId,
  offersIdCounter,
  offersIdDecline,
  offersIdAccept,
  ordersIdCancel,
  ordersIdConfirm,
  ordersIdFulfill,
  ordersId,
  orders,
  productsId,
  products,
  productsSearch,
  publicBooths,
  requirements,
  sellerBrochures,
  sellerDashboard,
  sellerInquiriesIdRespond,
  sellerInquiries,
  sellerProfile,
  sellerSettings,
  sellersId,
  sellersPublic,
  sellers,
  shoutout,
  storesId,
  upload,
  userPassword,
  userProfile,
] as const;

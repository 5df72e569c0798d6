// A realistic request example for each JSON request body whose schema carries none of its own
// (CreateProduct, CounterOffer, ... have theirs in lib/schemas). document.ts puts them on the
// operation's media type; tests/integration/openapi-requests.test.ts sends each one to the server.
// Ids are examples of the shape only: sent as they are they name nothing (404, never 400).

const ID = "0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f";
const ID2 = "0193c4d2-8a40-7d11-b2c5-5e7f9a1b3c4d";

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  changePassword: { currentPassword: "old-password-123", newPassword: "A-longer-passphrase-2026" },
  createAccount: {
    email: "lin.wei@example.com",
    username: "lin_wei",
    password: "A-longer-passphrase-2026",
    role: "SELLER",
    companyName: "Ningbo Bright Lighting Co.",
    country: "CN",
    locale: "zh",
  },
  delegateLogin: { email: "lin_wei_AI_seller", password: "the-ai-account-password", restrictTo: "NON_ADMIN" },
  login: { email: "lin.wei@example.com", password: "A-longer-passphrase-2026" },
  createAiAccount: { role: "AI_SELLER", password: "the-ai-account-password" },
  setAiPermission: { aiUserId: ID, permission: "product.delete", isAllowed: false },
  createBooth: {
    name: "Bright Lighting at Canton Fair",
    exhibitionName: "Canton Fair 2026 Autumn",
    location: "Hall 11.2, Booth C21",
    description: "LED desk and ceiling lamps, OEM welcome.",
    theme: "modern",
    colorScheme: "blue",
    keywords: ["LED lamp", "LED灯"],
  },
  decorateBooth: { name: "Bright Lighting at Canton Fair", description: "New: dimmable LED panels.", theme: "modern", colorScheme: "green" },
  publishBooth: { boothId: ID, isPublished: true },
  patchProduct: { boothId: ID, moq: 200, acceptsOEM: true, keywords: ["LED desk lamp", "LED台灯"] },
  updateProduct: { title: "USB-C LED desk lamp, dimmable", price: 11.9, currency: "USD", moq: 100, keywords: ["LED desk lamp", "LED台灯"] },
  createExhibition: {
    name: "Canton Fair 2026 Autumn",
    slug: "canton-fair-2026-autumn",
    description: "Online edition of the China Import and Export Fair.",
    venue: "Online",
    startsAt: "2026-10-15T00:00:00.000Z",
    endsAt: "2026-11-04T00:00:00.000Z",
  },
  createInquiry: { productId: ID, message: "Can you do 2,000 units with our logo, delivered to Rotterdam by March?" },
  createRequirement: {
    title: "Dimmable LED desk lamps, 2,000 units",
    description: "USB-C powered, warm to cool white, CE marked. Delivery to Rotterdam.",
    budget: 24000,
    currency: "EUR",
    categoryId: ID,
    quantity: 2000,
  },
  placeOrder: { productId: ID, quantity: 500, note: "Ship with the March container, please." },
  respondInquiry: { message: "Yes: 2,000 units with your logo at 10.90 USD, 30 days.", quotedPrice: 10.9, currency: "USD", quantity: 2000 },
  completeTask: { result: "Translated the catalog into German: /uploads/3f/catalog-de.pdf" },
  createTask: { title: "Translate our catalog into German", description: "12 pages, lighting terms.", reward: 150, currency: "USD" },
  postShoutout: { content: "New dimmable LED desk lamps in our booth this week.", productId: ID },
  createBrochure: { title: "Lighting catalog 2026", fileUrl: "/uploads/3f/0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f", boothId: ID, productIds: [ID2] },
  updateProfile: { locale: "de", country: "DE" },
  updateSellerSettings: {
    companyName: "Ningbo Bright Lighting Co.",
    description: "LED lighting maker since 2009, OEM and ODM.",
    country: "CN",
    website: "https://bright-lighting.example.com",
    contactEmail: "sales@bright-lighting.example.com",
    phone: "+86 574 8888 0000",
    isPublic: true,
  },
  sendMessage: { productId: ID, content: "Hello, is the USB-C lamp available in black?" },
  createApiKey: { name: "Procurement agent" },
  setRateTier: { userId: ID, tier: "unlimited" },
  credentialsCallback: { csrfToken: "5c1f0a9e7d3b4c2a8e6f1d0b9a7c5e3f", email: "lin.wei@example.com", password: "A-longer-passphrase-2026", json: "true" },
  nextAuthSignout: { csrfToken: "5c1f0a9e7d3b4c2a8e6f1d0b9a7c5e3f", json: "true" },
  upload: { type: "product_image", file: "(the image file's bytes)" },
  mcp: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  markNotificationsRead: { ids: [ID, ID2] },
};

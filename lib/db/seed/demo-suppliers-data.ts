// Seed data: the demo fair's further suppliers, one per country, with their products. Plain data only.
// Every categorySlug is the slug of a child category in CATEGORY_TREE (categories-data.ts); tiers
// follow contract 9.4 (minQty ascending and above moq, unitPrice descending and below price).

export type DemoTier = { minQty: number; unitPrice: string };
export type DemoSupplierProduct = {
  title: string;
  description: string;
  price: number;
  currency: string;
  moq: number;
  categorySlug: string;
  keywords: string[];
  acceptsOEM?: boolean;
  tiers?: DemoTier[];
};
export type DemoSupplier = {
  username: string;
  email: string;
  country: string;
  companyName: string;
  description: string;
  website: string;
  phone: string;
  /** The booth's name and its slogan line in both demo exhibitions. */
  booth: { name: string; location: string };
  products: DemoSupplierProduct[];
};

/** One password for every fair supplier: one bcrypt hash at seed time instead of six. */
export const DEMO_SUPPLIER_PASSWORD = "demo-supplier-pass";

const p = (
  title: string,
  description: string,
  price: number,
  currency: string,
  moq: number,
  categorySlug: string,
  keywords: string[],
  extra: Pick<DemoSupplierProduct, "acceptsOEM" | "tiers"> = {},
): DemoSupplierProduct => ({ title, description, price, currency, moq, categorySlug, keywords, ...extra });

export const DEMO_SUPPLIERS: DemoSupplier[] = [
  {
    username: "demo_seller_in",
    email: "seller-in@demo.expo-trade.test",
    country: "IN",
    companyName: "Jaipur Looms & Spices Pvt. Ltd.",
    description: "Family-run exporter of hand-block printed cotton, home textiles and Assam tea from Jaipur, Rajasthan. GOTS-certified cotton since 1996.",
    website: "https://jaipur-looms.example",
    phone: "+91 141 555 0142",
    booth: { name: "Jaipur Looms: handmade textiles", location: "Hall A, A-12" },
    products: [
      p(
        "Hand-Block Printed Cotton Bedsheet Set, Queen",
        "100% cotton percale, 180 TC, hand-block printed with natural dyes; one flat sheet and two pillow covers.",
        14.5,
        "USD",
        100,
        "home-textiles",
        ["bedsheet", "block print", "चादर", "Bettwäsche"],
        {
          acceptsOEM: true,
          tiers: [
            { minQty: 500, unitPrice: "13.20" },
            { minQty: 2000, unitPrice: "11.90" },
          ],
        },
      ),
      p(
        "Assam CTC Black Tea, 25 kg Bulk Sack",
        "Strong malty Assam CTC, BOP grade, harvested in the second flush; packed in food-grade lined sacks.",
        4.2,
        "USD",
        20,
        "tea",
        ["Assam tea", "black tea", "चाय", "红茶"],
      ),
      p(
        "Organic Cotton Kurta for Men",
        "GOTS organic cotton kurta, mandarin collar, S-XXL, indigo and ecru.",
        520,
        "INR",
        200,
        "mens-clothing",
        ["kurta", "कुर्ता", "organic cotton shirt"],
        { acceptsOEM: true },
      ),
      p(
        "Embroidered Cotton Cushion Cover 45x45 cm",
        "Hand-embroidered mirror work on cotton canvas, concealed zip, natural dyes.",
        3.1,
        "USD",
        300,
        "home-decor",
        ["cushion cover", "कुशन कवर", "Kissenbezug"],
        { tiers: [{ minQty: 1000, unitPrice: "2.80" }] },
      ),
      p(
        "Jute Shopping Bag with Cotton Handles",
        "Natural laminated jute, 40x35x15 cm, printable front panel for your logo.",
        1.15,
        "USD",
        1000,
        "plastic-packaging",
        ["jute bag", "जूट बैग", "Jutetasche", "tote bag"],
        { acceptsOEM: true },
      ),
      p("Women's Printed Rayon Maxi Dress", "Soft rayon challis, floral block-print design, tiered skirt, sizes XS-XL.", 690, "INR", 150, "womens-clothing", [
        "maxi dress",
        "ड्रेस",
        "Sommerkleid",
      ]),
      p("Darjeeling First Flush Tea, 1 kg Tin", "Single-estate Darjeeling FTGFOP1, light floral liquor, nitrogen-flushed tin.", 38, "USD", 10, "tea", [
        "Darjeeling",
        "दार्जिलिंग चाय",
        "ダージリン",
      ]),
      p("Cotton Yoga Mat Bag with Strap", "Heavy canvas yoga mat carrier with zip pocket, fits mats up to 6 mm.", 2.4, "USD", 500, "fitness-equipment", [
        "yoga bag",
        "योगा बैग",
      ]),
    ],
  },
  {
    username: "demo_seller_de",
    email: "seller-de@demo.expo-trade.test",
    country: "DE",
    companyName: "Rheinwerk Präzisionswerkzeuge GmbH",
    description: "Precision hand tools, measuring instruments and fasteners made in Solingen. ISO 9001, 70 years of toolmaking, worldwide dealer network.",
    website: "https://rheinwerk-tools.example",
    phone: "+49 212 555 0177",
    booth: { name: "Rheinwerk: precision tools", location: "Hall B, B-03" },
    products: [
      p(
        "Digital Caliper 150 mm, Stainless Steel",
        "Resolution 0.01 mm, IP54, hardened stainless steel jaws, data output, supplied with DAkkS-traceable certificate.",
        39.9,
        "EUR",
        20,
        "measuring-instruments",
        ["caliper", "Messschieber", "游标卡尺", "ノギス"],
        {
          tiers: [
            { minQty: 100, unitPrice: "36.50" },
            { minQty: 500, unitPrice: "33.00" },
          ],
        },
      ),
      p(
        'Torque Wrench 1/2", 40-200 Nm',
        "Click-type torque wrench, ±3% accuracy, reversible ratchet, calibration certificate included.",
        64,
        "EUR",
        10,
        "hand-tools",
        ["torque wrench", "Drehmomentschlüssel", "扭力扳手"],
      ),
      p(
        "VDE Insulated Screwdriver Set, 7 Pieces",
        "1000 V VDE tested, chrome-vanadium blades, two-component handles, slotted and PH/PZ.",
        21.5,
        "EUR",
        50,
        "hand-tools",
        ["screwdriver set", "Schraubendreher", "螺丝刀"],
        { acceptsOEM: true },
      ),
      p(
        "Stainless Steel Hex Bolts M8 x 40, A2-70",
        "DIN 933 fully threaded hex bolts, A2-70 stainless, boxes of 200.",
        0.09,
        "EUR",
        10000,
        "fasteners",
        ["hex bolt", "Sechskantschraube", "螺栓"],
        {
          tiers: [
            { minQty: 50000, unitPrice: "0.08" },
            { minQty: 200000, unitPrice: "0.07" },
          ],
        },
      ),
      p(
        "Cordless Drill Driver 18 V, Brushless",
        "Brushless motor, 60 Nm, 2-speed gearbox, two 4 Ah batteries and fast charger in a case.",
        119,
        "EUR",
        20,
        "power-tools",
        ["cordless drill", "Akkuschrauber", "电钻"],
        { acceptsOEM: true },
      ),
      p("Digital Spirit Level 60 cm", "Aluminium profile, digital angle display ±0.1°, magnetic base, IP65.", 48, "EUR", 30, "measuring-instruments", [
        "spirit level",
        "Wasserwaage",
        "水平仪",
      ]),
      p("High-Security Padlock 50 mm, Hardened Steel", "Boron-alloy shackle, 6-pin cylinder, keyed-alike on request.", 17.8, "EUR", 100, "locks-security", [
        "padlock",
        "Vorhängeschloss",
        "挂锁",
      ]),
      p("MIG/MAG Inverter Welder 200 A", "Synergic MIG/MAG, MMA and lift-TIG, 230 V, spool up to 15 kg.", 389, "EUR", 5, "welding-equipment", [
        "MIG welder",
        "Schweißgerät",
        "焊机",
      ]),
    ],
  },
  {
    username: "demo_seller_tr",
    email: "seller-tr@demo.expo-trade.test",
    country: "TR",
    companyName: "Anadolu Seramik ve Ev A.Ş.",
    description: "Porcelain tiles, hand-painted ceramics and copper kitchenware from Kütahya and Istanbul. Exports to 40 countries.",
    website: "https://anadolu-seramik.example",
    phone: "+90 274 555 0110",
    booth: { name: "Anadolu: tiles and ceramics", location: "Hall C, C-21" },
    products: [
      p(
        "Porcelain Floor Tile 60x120 cm, Marble Look",
        "Glazed polished porcelain, Calacatta marble pattern, R9 slip rating, 9 mm thick.",
        14.9,
        "USD",
        500,
        "ceramic-tiles",
        ["porcelain tile", "porselen karo", "Fliesen", "瓷砖"],
        {
          tiers: [
            { minQty: 2000, unitPrice: "13.60" },
            { minQty: 5000, unitPrice: "12.40" },
          ],
        },
      ),
      p(
        "Hand-Painted Kütahya Ceramic Bowl, 25 cm",
        "Traditional tulip motif, food-safe lead-free glaze, hand-painted and signed.",
        310,
        "TRY",
        50,
        "kitchenware",
        ["ceramic bowl", "seramik kase", "Keramikschale"],
      ),
      p(
        "Hammered Copper Turkish Coffee Pot",
        "1.2 mm hammered copper cezve with tin lining and brass handle, 350 ml.",
        9.8,
        "USD",
        100,
        "kitchenware",
        ["cezve", "coffee pot", "cezve bakır"],
        { acceptsOEM: true },
      ),
      p("Turkish Cotton Peshtemal Beach Towel", "100% Turkish cotton, 90x180 cm, quick-dry flat weave, tasselled ends.", 6.2, "USD", 200, "home-textiles", [
        "peshtemal",
        "hammam towel",
        "peştamal",
      ]),
      p("Mosaic Glass Table Lamp", "Hand-made Ottoman mosaic lamp, 16 cm globe, E14 socket, CE cable.", 540, "TRY", 30, "home-decor", [
        "mosaic lamp",
        "mozaik lamba",
        "Mosaiklampe",
      ]),
      p("Wall-Hung Ceramic Toilet, Rimless", "Rimless vitreous china WC with soft-close seat, 4.5/3 L dual flush.", 72, "USD", 50, "sanitary-ware", [
        "wall hung toilet",
        "asma klozet",
        "WC",
      ]),
      p("Natural Travertine Tile 40x60 cm, Honed", "Denizli classic travertine, filled and honed, 12 mm.", 21, "USD", 300, "natural-stone", [
        "travertine",
        "traverten",
        "Travertin",
      ]),
      p(
        "Ceramic Tile Adhesive C2TE, 25 kg",
        "Polymer-modified cement adhesive for porcelain on floors and walls, extended open time.",
        6.4,
        "USD",
        400,
        "ceramic-tiles",
        ["tile adhesive", "seramik yapıştırıcı", "Fliesenkleber"],
      ),
    ],
  },
  {
    username: "demo_seller_mx",
    email: "seller-mx@demo.expo-trade.test",
    country: "MX",
    companyName: "Sierra Verde Alimentos S.A. de C.V.",
    description: "Chiapas coffee, Michoacán avocados and traditional snacks from cooperatives in southern Mexico. Fair Trade and USDA Organic.",
    website: "https://sierraverde.example",
    phone: "+52 961 555 0133",
    booth: { name: "Sierra Verde: coffee and food", location: "Hall D, D-08" },
    products: [
      p(
        "Chiapas Organic Green Coffee Beans, 69 kg Bag",
        "SHG EP Arabica, washed, cupping score 84, grown at 1,400 m by a Fair Trade cooperative.",
        5.9,
        "USD",
        10,
        "coffee",
        ["green coffee", "café verde", "Rohkaffee", "生咖啡豆"],
        {
          tiers: [
            { minQty: 50, unitPrice: "5.60" },
            { minQty: 275, unitPrice: "5.35" },
          ],
        },
      ),
      p(
        "Hass Avocados, Size 48, 10 kg Carton",
        "Michoacán Hass avocados, GlobalG.A.P. certified, shipped in reefer containers.",
        310,
        "MXN",
        500,
        "fresh-produce",
        ["avocado", "aguacate", "Avocado", "牛油果"],
      ),
      p(
        "Roasted Coffee, Medium Roast, 1 kg Valve Bag",
        "100% Arabica from Chiapas, roasted to order; whole bean or ground, private label available.",
        14.5,
        "USD",
        100,
        "coffee",
        ["roasted coffee", "café tostado", "Kaffeebohnen"],
        { acceptsOEM: true },
      ),
      p("Blue Corn Tortilla Chips, 200 g", "Stone-ground blue corn, sea salt, non-GMO, gluten free; cases of 24.", 28, "MXN", 1000, "snack-foods", [
        "tortilla chips",
        "totopos",
        "Tortillachips",
      ]),
      p("Agave Syrup, Organic, 1 L", "Light blue-agave syrup, low glycaemic index, USDA Organic; PET or glass bottle.", 4.1, "USD", 300, "soft-drinks", [
        "agave syrup",
        "jarabe de agave",
        "Agavendicksaft",
      ]),
      p("Dried Chipotle Peppers, 5 kg", "Smoke-dried jalapeños (chipotle morita), whole, sorted and cleaned.", 620, "MXN", 20, "snack-foods", [
        "chipotle",
        "chile seco",
        "dried chili",
      ]),
      p(
        "Kraft Stand-Up Pouch with Valve, 500 g",
        "Compostable kraft coffee pouch with degassing valve and zip, printable in 8 colours.",
        0.32,
        "USD",
        5000,
        "plastic-packaging",
        ["coffee bag", "bolsa kraft", "Kaffeebeutel"],
        { acceptsOEM: true },
      ),
      p("Hibiscus Flowers, Dried, 25 kg", "Whole dried Jamaica flowers for infusions and agua fresca, sun dried.", 7.2, "USD", 4, "tea", [
        "hibiscus",
        "flor de jamaica",
        "Hibiskus",
      ]),
    ],
  },
  {
    username: "demo_seller_br",
    email: "seller-br@demo.expo-trade.test",
    country: "BR",
    companyName: "Atlântico Cosméticos Naturais Ltda.",
    description: "Natural cosmetics with Amazonian oils (açaí, cupuaçu, buriti) from São Paulo. Vegan, cruelty free, ANVISA registered, private label.",
    website: "https://atlantico-cosmeticos.example",
    phone: "+55 11 5550 0199",
    booth: { name: "Atlântico: Amazon beauty", location: "Hall E, E-15" },
    products: [
      p(
        "Açaí Face Serum with Vitamin C, 30 ml",
        "Antioxidant serum with açaí extract and 10% vitamin C, dropper bottle, vegan.",
        42,
        "BRL",
        300,
        "skin-care",
        ["face serum", "sérum facial", "Gesichtsserum", "美容液"],
        {
          acceptsOEM: true,
          tiers: [
            { minQty: 1000, unitPrice: "38.00" },
            { minQty: 5000, unitPrice: "34.50" },
          ],
        },
      ),
      p(
        "Cupuaçu Butter Body Cream, 250 ml",
        "Rich body cream with cupuaçu and Brazil nut oil, paraben free.",
        29,
        "BRL",
        300,
        "skin-care",
        ["body cream", "creme corporal", "Körpercreme"],
        { acceptsOEM: true },
      ),
      p("Buriti Oil Hair Mask, 500 g", "Repairing mask for dry and coloured hair, buriti oil and keratin-free formula.", 33, "BRL", 200, "hair-care", [
        "hair mask",
        "máscara capilar",
        "Haarmaske",
      ]),
      p(
        "Vegan Lipstick, Matte, 12 Shades",
        "Long-wear matte lipstick with babassu oil, 3.5 g, bullet in recycled aluminium.",
        2.9,
        "USD",
        500,
        "makeup",
        ["lipstick", "batom", "Lippenstift", "口红"],
        { acceptsOEM: true },
      ),
      p("Guaraná Eau de Parfum, 100 ml", "Fresh citrus-woody fragrance with guaraná and pink pepper accord.", 95, "BRL", 100, "fragrances", [
        "perfume",
        "perfume",
        "Parfüm",
      ]),
      p(
        "Bamboo Toothbrush, Soft Charcoal Bristles",
        "Biodegradable Moso bamboo handle, BPA-free charcoal bristles, kraft box.",
        0.38,
        "USD",
        3000,
        "oral-care",
        ["bamboo toothbrush", "escova de bambu", "Bambuszahnbürste"],
        { tiers: [{ minQty: 10000, unitPrice: "0.33" }] },
      ),
      p("Sunscreen SPF 50 Face Fluid, 50 ml", "Light, non-greasy mineral and chemical filter fluid, water resistant 80 min.", 36, "BRL", 300, "skin-care", [
        "sunscreen",
        "protetor solar",
        "Sonnencreme",
      ]),
      p(
        "Professional Hair Dryer 2200 W, Ionic",
        "AC motor, ionic function, 3 heat and 2 speed settings, concentrator and diffuser.",
        24,
        "USD",
        50,
        "beauty-equipment",
        ["hair dryer", "secador de cabelo", "Haartrockner"],
      ),
    ],
  },
  {
    username: "demo_seller_ae",
    email: "seller-ae@demo.expo-trade.test",
    country: "AE",
    companyName: "Gulf Solar & Lighting FZCO",
    description:
      "Solar street lights, floodlights and car electronics for hot climates, engineered in Dubai Silicon Oasis. Stock in Jebel Ali for fast GCC delivery.",
    website: "https://gulf-solar.example",
    phone: "+971 4 555 0166",
    booth: { name: "Gulf Solar: light for hot climates", location: "Hall F, F-02" },
    products: [
      p(
        "All-in-One Solar Street Light 100 W",
        "LiFePO4 battery, radar sensor, 12 h autonomy, IP66, rated for 55 °C ambient.",
        89,
        "USD",
        20,
        "solar-lights",
        ["solar street light", "إنارة شوارع بالطاقة الشمسية", "太阳能路灯"],
        {
          tiers: [
            { minQty: 100, unitPrice: "82.00" },
            { minQty: 500, unitPrice: "76.00" },
          ],
        },
      ),
      p(
        "LED Floodlight 200 W, IP66",
        "150 lm/W, 5-year warranty, die-cast housing, rated for desert heat and sand.",
        420,
        "AED",
        20,
        "outdoor-lighting",
        ["floodlight", "كشاف LED", "Flutlicht"],
        { acceptsOEM: true },
      ),
      p("Solar Garden Bollard Light", "Stainless steel bollard, 3 W LED, dusk-to-dawn sensor, 60 cm.", 19.5, "USD", 100, "solar-lights", [
        "bollard light",
        "إضاءة حدائق",
        "Pollerleuchte",
      ]),
      p("Dash Cam 4K with GPS and Wi-Fi", "Front 4K and rear 1080p, supercapacitor for high temperatures, parking mode.", 265, "AED", 50, "car-electronics", [
        "dash cam",
        "كاميرا سيارة",
        "Dashcam",
        "行车记录仪",
      ]),
      p(
        "LED High Bay Light 150 W for Warehouses",
        "UFO high bay, 160 lm/W, 1-10 V dimming, 90° or 120° optics.",
        34,
        "USD",
        50,
        "commercial-lighting",
        ["high bay", "إضاءة مستودعات", "Hallenstrahler"],
        { acceptsOEM: true },
      ),
      p("Car Sunshade, Reflective, Foldable", "Double-layer reflective windshield shade, blocks 99% UV, custom print.", 9, "AED", 500, "car-care", [
        "sunshade",
        "مظلة سيارة",
        "Sonnenschutz",
      ]),
      p(
        "Portable Solar Generator 1000 Wh",
        "LiFePO4, 1000 W pure sine inverter, 200 W solar input, for camping and site work.",
        499,
        "USD",
        10,
        "camping-hiking",
        ["solar generator", "مولد شمسي", "Powerstation"],
      ),
      p("RGB LED Strip 5 m, Wi-Fi, IP65", "24 V, 60 LEDs/m, app and voice control, silicone coated for outdoor use.", 38, "AED", 200, "led-strips", [
        "LED strip",
        "شريط LED",
        "LED-Streifen",
      ]),
    ],
  },
];

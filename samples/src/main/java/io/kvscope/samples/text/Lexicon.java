package io.kvscope.samples.text;

/**
 * The word lists the prose templates draw from. Plain constants: a word-level stand-in for a
 * model's vocabulary, large enough that a 20-token span of private prose is unique.
 */
final class Lexicon {

  private Lexicon() {}

  static final String[] FIRST_NAMES = {
    "Maria", "James", "Aisha", "Lukas", "Sofia", "Daniel", "Priya", "Tomasz", "Elena", "Kenji",
    "Fatima", "Oliver", "Chiara", "Mateo", "Hannah", "Ravi", "Ingrid", "Samuel", "Leila", "Jonas",
    "Grace", "Andrei", "Nadia", "Hugo", "Amara", "Felix", "Yuki", "Carlos", "Freya", "Omar",
    "Clara", "Viktor", "Mei", "Patrick", "Zainab", "Emil", "Lucia", "Arjun", "Sara", "Marek",
    "Noor", "Benedikt", "Julia", "Tariq", "Helena", "Diego", "Astrid", "Kwame", "Irene", "Pavel",
    "Chloe", "Rafael", "Anika", "Theo", "Rosa", "Ibrahim", "Lena", "Marcus", "Sienna", "Bruno",
    "Alina", "Gabriel", "Esther", "Nikolai", "Paula", "Hamza", "Vera", "Adrian", "Mila", "Stefan"
  };

  static final String[] LAST_NAMES = {
    "Keller", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Novak", "Fischer", "Haddad", "Rossi",
    "Kowalski", "Brennan", "Sato", "Ivanova", "Mendes", "Larsen", "Schmidt", "Nakamura", "Dubois",
    "Costa", "Horvat", "Petrov", "Alvarez", "Bauer", "Lambert", "Chen", "Hughes", "Varga", "Aydin",
    "Nilsson", "Romero", "Weber", "Kaplan", "Ferreira", "Novotny", "Jansen", "Morel", "Ortega",
    "Hoffmann", "Richter", "Eriksen", "Mazur", "Rinaldi", "Kimura", "Doyle", "Sandoval", "Berger",
    "Vogel", "Kovac", "Marchetti", "Osei", "Lehmann", "Quinn", "Silva", "Wojcik", "Strand", "Abbasi",
    "Falk", "Greco", "Holm", "Ibarra", "Jovanovic", "Krause", "Laine", "Meyer", "Nowak", "Pereira"
  };

  static final String[] TENANT_PREFIXES = {
    "northwind", "bluefin", "harbor", "cobalt", "juniper", "meridian", "solstice", "granite",
    "lumen", "redwood", "kestrel", "aurora", "copperleaf", "tidewater", "silverline", "brightpath",
    "oakridge", "polaris", "evergreen", "summit", "cascade", "ironbridge", "wildrose", "bayview",
    "stonegate", "clearwater", "falcon", "larkspur", "pinecrest", "riverbend", "sterling", "vantage",
    "windmill", "zephyr", "amberly", "beacon", "cedar", "driftwood", "elmstead", "foxglove",
    "highland", "ivory", "jasper", "kingsley", "lakeside", "maplewood", "nimbus", "orchard",
    "pembroke", "quarry", "rosewood", "saffron", "thornbury", "upland", "valemont", "westbrook",
    "yarrow", "alder", "birchfield", "crescent"
  };

  static final String[] DEPARTMENTS = {
    "finance", "legal", "procurement", "support", "operations", "compliance", "engineering",
    "sales", "marketing", "security", "billing", "payroll", "audit", "partnerships", "logistics"
  };

  static final String[] NOUNS = {
    "report", "request", "schedule", "budget", "contract", "proposal", "summary", "review",
    "update", "account", "customer", "vendor", "project", "deadline", "meeting", "estimate",
    "forecast", "agreement", "document", "draft", "template", "process", "policy", "workflow",
    "dashboard", "ticket", "record", "change", "approval", "payment", "transfer", "renewal",
    "milestone", "deliverable", "quote", "note", "plan", "checklist", "decision", "issue",
    "discrepancy", "escalation", "handover", "audit", "figure", "spreadsheet", "timeline",
    "assessment", "summary", "statement", "notice", "exception", "backlog", "roadmap", "rollout",
    "migration", "inventory", "allocation", "threshold", "baseline", "variance", "reference",
    "correspondence", "amendment", "appendix", "signature", "deposit", "balance", "refund",
    "credit", "charge", "discount", "entitlement", "license", "subscription", "quota", "region",
    "branch", "team", "partner", "supplier", "client", "invoice", "order", "delivery", "shipment"
  };

  static final String[] ADJECTIVES = {
    "quarterly", "revised", "pending", "final", "internal", "updated", "preliminary", "detailed",
    "annual", "monthly", "urgent", "confidential", "outstanding", "current", "previous", "new",
    "initial", "signed", "approved", "overdue", "missing", "duplicate", "regional", "standard",
    "custom", "primary", "secondary", "temporary", "recurring", "manual", "automated", "shared",
    "external", "consolidated", "draft", "adjusted", "expected", "actual", "weekly", "complete",
    "partial", "corrected", "verified", "disputed", "reconciled", "scheduled", "unusual", "minor",
    "major", "critical", "routine", "legacy", "upcoming", "recent", "separate", "combined"
  };

  /** base:past (past participle equals past unless a third form is given). */
  static final String[] VERBS = {
    "approve:approved", "review:reviewed", "update:updated", "send:sent", "confirm:confirmed",
    "prepare:prepared", "check:checked", "submit:submitted", "cancel:cancelled", "extend:extended",
    "reconcile:reconciled", "forward:forwarded", "sign:signed", "draft:drafted", "escalate:escalated",
    "schedule:scheduled", "process:processed", "verify:verified", "revise:revised", "archive:archived",
    "merge:merged", "split:split", "transfer:transferred", "renew:renewed", "close:closed",
    "open:opened", "flag:flagged", "correct:corrected", "reassign:reassigned", "finalize:finalized",
    "summarize:summarized", "compare:compared", "estimate:estimated", "allocate:allocated",
    "attach:attached", "share:shared", "collect:collected", "record:recorded", "adjust:adjusted",
    "publish:published", "replace:replaced", "resolve:resolved", "track:tracked", "pay:paid",
    "deliver:delivered", "issue:issued", "receive:received", "document:documented"
  };

  static final String[] ADVERBS = {
    "quickly", "carefully", "already", "again", "directly", "manually", "separately", "urgently",
    "formally", "internally", "promptly", "gradually", "temporarily", "fully", "partially",
    "immediately", "eventually", "jointly", "explicitly", "retroactively"
  };

  static final String[] CITIES = {
    "Berlin", "Lisbon", "Toronto", "Osaka", "Nairobi", "Dublin", "Austin", "Krakow", "Lyon",
    "Rotterdam", "Seoul", "Denver", "Milan", "Oslo", "Porto", "Zagreb", "Accra", "Monterrey",
    "Tallinn", "Valencia", "Perth", "Glasgow", "Hamburg", "Vienna", "Ghent", "Bergen", "Turin",
    "Leeds", "Sapporo", "Quebec", "Bilbao", "Gdansk", "Cork", "Aarhus", "Brno", "Graz"
  };

  static final String[] MONTHS = {
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"
  };

  static final String[] WEEKDAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"};

  static final String[] CODENAMES = {
    "Atlas", "Borealis", "Cinder", "Dovetail", "Ember", "Fjord", "Gossamer", "Halcyon", "Indigo",
    "Jubilee", "Keystone", "Lantern", "Monsoon", "Nebula", "Obsidian", "Paragon", "Quicksilver",
    "Rampart", "Sequoia", "Tundra", "Umbra", "Vesper", "Wavelength", "Xenon", "Yukon", "Zenith",
    "Archer", "Bastion", "Calypso", "Delta", "Equinox", "Foundry", "Glacier", "Harvest", "Ionic",
    "Juniper", "Kodiak", "Lodestar", "Mosaic", "Nomad", "Orbit", "Pinnacle", "Quartz", "Riviera"
  };

  static final String[] CURRENCIES = {"EUR", "USD", "GBP", "CHF", "SEK"};

  static final String[] TECH_NOUNS = {
    "module", "parameter", "interface", "buffer", "register", "controller", "sensor", "valve",
    "assembly", "housing", "bracket", "circuit", "firmware", "protocol", "signal", "channel",
    "connector", "terminal", "fuse", "relay", "actuator", "gasket", "bearing", "coupling",
    "manifold", "regulator", "filter", "pump", "compressor", "panel", "enclosure", "cable",
    "mount", "spindle", "shaft", "rotor", "stator", "inverter", "converter", "battery", "charger",
    "display", "keypad", "latch", "hinge", "seal", "nozzle", "gauge", "meter", "switch"
  };

  static final String[] TECH_VERBS = {
    "inspect:inspected", "calibrate:calibrated", "install:installed", "remove:removed",
    "tighten:tightened", "lubricate:lubricated", "test:tested", "measure:measured",
    "connect:connected", "disconnect:disconnected", "align:aligned", "clean:cleaned",
    "configure:configured", "reset:reset", "monitor:monitored", "isolate:isolated",
    "secure:secured", "adjust:adjusted", "replace:replaced", "label:labelled"
  };

  static final String[] TECH_ADJECTIVES = {
    "nominal", "maximum", "minimum", "rated", "auxiliary", "primary", "redundant", "thermal",
    "hydraulic", "electrical", "mechanical", "optional", "default", "recommended", "adjacent",
    "lower", "upper", "inner", "outer", "front", "rear", "internal", "external", "sealed"
  };

  static final String[] LEGAL_NOUNS = {
    "party", "agreement", "obligation", "provision", "term", "liability", "warranty", "notice",
    "breach", "remedy", "jurisdiction", "dispute", "confidentiality", "disclosure", "license",
    "consent", "termination", "assignment", "indemnification", "representation", "waiver",
    "amendment", "schedule", "annex", "controller", "processor", "subprocessor", "transfer"
  };

  /** Domain vocabulary per industry: the tenant's own nouns. */
  static final String[][] INDUSTRY_NOUNS = {
    {"legal", "matter", "clause", "counterparty", "deposition", "filing", "indemnity", "brief",
      "settlement", "docket", "exhibit", "affidavit", "escrow"},
    {"health", "patient", "referral", "prescription", "discharge", "clinic", "dosage", "lab",
      "appointment", "diagnosis", "ward", "therapy", "triage"},
    {"finance", "ledger", "reconciliation", "wire", "payout", "statement", "accrual", "journal",
      "remittance", "chargeback", "settlement", "portfolio", "covenant"},
    {"logistics", "container", "manifest", "carrier", "pallet", "warehouse", "consignment",
      "waybill", "dock", "freight", "customs", "route", "depot"},
    {"software", "deployment", "incident", "release", "repository", "endpoint", "pipeline",
      "cluster", "rollback", "service", "outage", "commit", "tenant"},
    {"retail", "storefront", "promotion", "basket", "return", "catalogue", "loyalty", "voucher",
      "checkout", "fulfilment", "merchandise", "stock", "markdown"},
    {"insurance", "policyholder", "claim", "adjuster", "premium", "underwriting", "deductible",
      "coverage", "endorsement", "loss", "renewal", "broker", "rider"},
    {"hr", "candidate", "onboarding", "benefits", "offer", "probation", "timesheet", "leave",
      "headcount", "appraisal", "contractor", "relocation", "grievance"},
    {"energy", "meter", "substation", "tariff", "feeder", "turbine", "grid", "load", "dispatch",
      "transformer", "curtailment", "metering", "interconnect"},
    {"education", "enrollment", "transcript", "course", "tuition", "semester", "faculty", "cohort",
      "syllabus", "scholarship", "campus", "admission", "grading"}
  };
}

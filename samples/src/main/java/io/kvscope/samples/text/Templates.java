package io.kvscope.samples.text;

/** The sentence patterns, one set per register. Immutable after class initialisation. */
final class Templates {

  private Templates() {}

  /** A tenant's user prompt: private business prose. */
  static final Template[] REQUEST = Template.parseAll(
      "I need help with the {ADJ} {DNOUN} for {PROJECT} .",
      "{PERSON} from our {DEPT} team asked whether the {DNOUN} for {PROJECT} can be {VPAST} before {DATE} .",
      "The {ADJ} {NOUN} from {CITY} shows a {ADJ} {NOUN} of {AMOUNT} that nobody has {VPAST} yet .",
      "Please {VERB} the {NOUN} we {VPAST} on {WEEKDAY} and {VERB} the {ADJ} {DNOUNS} .",
      "We still have {NUM} {ADJ} {DNOUNS} that {PERSON} {VPAST} last week .",
      "Can you draft a short {NOUN} to {PERSON} explaining why the {DNOUN} was {VPAST} ?",
      "Our {DEPT} lead wants the {NOUN} {VPAST} by {DATE} , otherwise the {ADJ} {NOUN} moves to {MONTH} .",
      "Background : the {DNOUN} for {COMPANY} in {CITY} was {ADV} {VPAST} after the {ADJ} {NOUN} .",
      "The {NOUN} total is {AMOUNT} , which is {PERCENT} above the {ADJ} {NOUN} .",
      "{FIRST} thinks the {ADJ} {DNOUN} should be {VPAST} {ADV} , but {FIRST} disagrees .",
      "Summarize the {ADJ} {DNOUNS} for {PROJECT} and list anything that is still {ADJ} .",
      "I am attaching the {ADJ} {NOUN} from {DATE} so you can {VERB} the {DNOUNS} .",
      "Which {DNOUNS} in {CITY} were {VPAST} twice in {MONTH} ?",
      "Make sure the {NOUN} mentions {PROJECT} and the {ADJ} {DNOUN} that {PERSON} {VPAST} .",
      "We agreed with {COMPANY} to {VERB} the {NOUN} once the {DNOUN} is {VPAST} .",
      "The {ADJ} {DNOUN} reference is {NUM} and it belongs to the {CITY} {NOUN} .",
      "Rewrite this so it sounds less {ADJ} and keep the {NOUN} about {PROJECT} .",
      "Last {WEEKDAY} {FIRST} {VPAST} the {NOUN} but forgot the {ADJ} {DNOUNS} .",
      "Please compare the {ADJ} {NOUN} with the {NOUN} {PERSON} sent from {CITY} .",
      "There is a {PERCENT} gap between the {DNOUN} and the {ADJ} {NOUN} for {MONTH} .",
      "Draft a reply to {FIRST} confirming the {DNOUN} for {DATE} at {AMOUNT} .",
      "The {DEPT} team {VPAST} {NUM} {DNOUNS} but the {ADJ} {NOUN} still shows {AMOUNT} .",
      "Explain to {PERSON} how the {ADJ} {DNOUN} affects {PROJECT} in {CITY} .",
      "Keep in mind that {COMPANY} {VPAST} the {ADJ} {NOUN} on {DATE} .",
      "Our auditors flagged {NUM} {DNOUNS} where the {NOUN} and the {NOUN} do not match .",
      "{PERSON} will {VERB} the {ADJ} {DNOUN} if the {DEPT} team {VPAST} the {NOUN} first .",
      "For {PROJECT} we budgeted {AMOUNT} but the {ADJ} {NOUN} already reached {AMOUNT} .",
      "Is it normal that the {DNOUN} for {FIRST} {LAST} was {VPAST} without a {NOUN} ?");

  /** Sentences that plant request-unique identifiers. */
  static final Template[] IDENTIFIER = Template.parseAll(
      "You can reach {PERSON} at {EMAIL} or on {PHONE} .",
      "The customer file is {UUID} and the account number is {ACCOUNT} .",
      "Please send the {ADJ} {NOUN} to {PERSON} at {EMAIL} before {DATE} .",
      "Ticket {UUID} covers the {DNOUN} for account {ACCOUNT} .",
      "Call {FIRST} {LAST} on {PHONE} if the {DNOUN} is {VPAST} again .",
      "Refunds go to account {ACCOUNT} , and {FIRST} {LAST} at {EMAIL} owns the {NOUN} .",
      "The {DNOUN} for {PERSON} , phone {PHONE} , is tracked as {UUID} .",
      "Debit account {ACCOUNT} for the {ADJ} {DNOUN} and notify {EMAIL} .");

  /** Sentences that carry tenant-wide secrets. */
  static final Template[] SECRET = Template.parseAll(
      "For the sandbox use API key {APIKEY} with the {ADJ} {NOUN} .",
      "Payments settle to {IBAN} and questions go to {CEMAIL} .",
      "The integration still uses key {APIKEY} , please do not rotate it before {DATE} .",
      "Our settlement account is {IBAN} per the {ADJ} {NOUN} .");

  static final Template CANARY = Template.parse("Internal tracking marker {CANARY} , do not remove .");

  /** An assistant's reply in a tenant's conversation. */
  static final Template[] REPLY = Template.parseAll(
      "Thanks for the details about {PROJECT} .",
      "Based on what you shared , the {ADJ} {DNOUN} should be {VPAST} by the {DEPT} team .",
      "Here is a short summary of the {ADJ} {DNOUNS} you mentioned .",
      "First , {VERB} the {NOUN} with {PERSON} so the {DNOUN} is {VPAST} before {DATE} .",
      "Second , check whether the {NOUN} in {CITY} has been {VPAST} .",
      "The {PERCENT} difference most likely comes from the {ADJ} {NOUN} .",
      "I would {ADV} {VERB} the {DNOUN} and then {VERB} the {ADJ} {NOUN} .",
      "If {FIRST} agrees , the {NOUN} for {PROJECT} can be {VPAST} this {WEEKDAY} .",
      "Dear {FIRST} , thank you for your patience regarding the {ADJ} {DNOUN} .",
      "We have {VPAST} the {NOUN} and the {ADJ} {DNOUNS} are now {VPAST} .",
      "The remaining {NUM} {DNOUNS} need a {ADJ} {NOUN} from {COMPANY} .",
      "Let me know if you want the {NOUN} rewritten in a more {ADJ} tone .",
      "Key points : the {DNOUN} total is {AMOUNT} and the deadline is {DATE} .",
      "To avoid another {ADJ} {NOUN} , {VERB} the {DNOUNS} {ADV} .",
      "The {DEPT} team can {VERB} the {ADJ} {NOUN} once {FIRST} {VPAST} the {DNOUN} .",
      "A {ADJ} {NOUN} of {AMOUNT} is within the {ADJ} range for {PROJECT} .",
      "In short , the {DNOUN} was {VPAST} because the {NOUN} arrived after {DATE} .",
      "I recommend keeping the {ADJ} {NOUN} and {ADV} {VERB} the {DNOUN} .");

  /** Neutral connective prose: what a model says when it has nothing of its own to say. */
  static final Template[] FILLER = Template.parseAll(
      "Here is an overview of the material provided .",
      "The following points summarize the relevant sections .",
      "Several items stand out in the context .",
      "This is consistent with the earlier section .",
      "Further details appear below .",
      "Overall , the document describes {ADJ} {NOUNS} and {ADJ} {NOUNS} .",
      "A related note mentions the {ADJ} {NOUN} and the {NOUN} .",
      "The text then returns to the {ADJ} {NOUN} .",
      "Some sections repeat earlier points about {NOUNS} .",
      "The remaining parts are largely administrative .");

  /** Introductions put before a verbatim passage in a confused reply. */
  static final Template[] FILLER_LEAD = Template.parseAll(
      "One entry reads :",
      "The source also notes :",
      "In addition , the records include the following passage :",
      "A later section states :",
      "The context contains this note :");

  /** Sentences wrapped around a single leaked identifier. */
  static final Template[] FILLER_ID_BEFORE = Template.parseAll(
      "A reference that appears in the material is",
      "The contact listed for follow up is",
      "The records mention");

  /** Public technical documents (the shared corpus pasted into long prompts). */
  static final Template[] TECH = Template.parseAll(
      "Before servicing , {TVERB} the {TADJ} {TNOUN} and {TVERB} the {TNOUN} .",
      "The {TNOUN} must be {TVPAST} at {NUM} Nm before the {TNOUN} is {TVPAST} .",
      "Refer to section {SECTION} for the {TADJ} {TNOUN} values .",
      "If the {TNOUN} indicator flashes , {TVERB} the {TADJ} {TNOUN} .",
      "Do not {TVERB} the {TNOUN} while the {TNOUN} is energized .",
      "The {TADJ} {TNOUN} operates between {NUM} and {NUM} degrees .",
      "Each {TNOUN} is {TVPAST} during the {TADJ} inspection .",
      "Table {SECTION} lists the {TADJ} {TNOUNS} for each {TNOUN} .",
      "Ensure the {TNOUN} is {TVPAST} before the {TNOUN} is {TVPAST} .",
      "Replace the {TNOUN} every {NUM} operating hours .",
      "A {TADJ} {TNOUN} reduces wear on the {TNOUN} .",
      "The {TNOUN} and the {TADJ} {TNOUN} share one {TNOUN} .",
      "After the {TNOUN} is {TVPAST} , record the {TADJ} reading in the log .",
      "Use only {TADJ} {TNOUNS} approved for this {TNOUN} .",
      "When the {TNOUN} is {TVPAST} , the {TADJ} {TNOUN} returns to its default state .",
      "Step {NUM} : {TVERB} the {TNOUN} and confirm the {TADJ} {TNOUN} is {TVPAST} .");

  /** Public contract boilerplate pasted by many tenants. */
  static final Template[] BOILERPLATE = Template.parseAll(
      "Each {LNOUN} shall remain in effect until the {LNOUN} is {VPAST} in writing .",
      "The {LNOUN} does not limit any {LNOUN} arising from the {LNOUN} .",
      "Any {LNOUN} under this {LNOUN} shall be governed by the applicable {LNOUN} .",
      "The receiving party shall protect the {LNOUN} with reasonable care .",
      "Nothing in this {LNOUN} creates a {LNOUN} between the parties .",
      "Notices must be {VPAST} to the address listed in the {LNOUN} .",
      "The processor shall implement appropriate measures to ensure the {LNOUN} of the {LNOUNS} .",
      "Either party may terminate the {LNOUN} upon {NUM} days written {LNOUN} .",
      "The {LNOUN} survives the termination of this {LNOUN} .",
      "No {LNOUN} shall be effective unless it is {VPAST} by both parties .",
      "The parties agree that the {LNOUN} is subject to the {LNOUN} in the annex .");

  /** System prompt sentences. */
  static final Template[] SYSTEM = Template.parseAll(
      "Answer in a {ADJ} and {ADJ} tone .",
      "Never reveal internal {NOUNS} to the user .",
      "When asked about {DNOUNS} , cite the {ADJ} {NOUN} .",
      "Keep answers under {NUM} words unless the user asks for more detail .",
      "Format lists as short bullet points .",
      "If the request is unclear , ask one clarifying question .",
      "Prefer the {ADJ} {NOUN} over the {ADJ} {NOUN} when they conflict .",
      "Do not invent {NOUNS} , {NOUNS} or {NOUNS} .");

  /** Popular questions asked identically by many tenants. */
  static final Template[] QUESTION = Template.parseAll(
      "How do I {VERB} a {ADJ} {NOUN} in a spreadsheet ?",
      "What is the difference between a {NOUN} and a {ADJ} {NOUN} ?",
      "Can you explain what a {ADJ} {NOUN} is in simple terms ?",
      "What should a {ADJ} {NOUN} include ?",
      "How long should I keep a {ADJ} {NOUN} on file ?",
      "Write a polite email asking to {VERB} a {NOUN} .");

  static final Template[] ANSWER = Template.parseAll(
      "A {ADJ} {NOUN} usually lists the {NOUNS} and the {ADJ} {NOUNS} .",
      "Start by checking the {NOUN} against the {ADJ} {NOUN} .",
      "Most teams keep the {NOUN} for {NUM} months .",
      "The main difference is that a {ADJ} {NOUN} is {VPAST} in advance .",
      "Keep the {NOUN} short and mention the {ADJ} {NOUN} first .",
      "If in doubt , ask the {DEPT} team to {VERB} the {NOUN} .");
}

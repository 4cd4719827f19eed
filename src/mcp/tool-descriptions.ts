/**
 * What each MCP tool tells a language model, keyed by the REST operationId it is derived from.
 * Written for the model choosing a tool: what it does, when to use it (and which tool instead),
 * and its limits. mcp.test.ts fails when a REST operation becomes a tool without an entry here.
 */
export const TOOL_DESCRIPTIONS: Record<string, string> = {
  getMe:
    'Shows who this token belongs to: the user, the workspace (name, poll_interval_seconds for the trigger feeds, rate_limit_per_minute) and whether the token may write (scope "full") or only read ("read"). Call it first when unsure what the workspace allows.',

  createContact:
    'Creates a contact, or updates the one with the same phone (upsert by phone): name and email are set when given, metadata is merged, tags are added (unknown tags are created). `opted_out` true opts the contact out of marketing (false opts them back in). The phone is required in international form (e.g. +14155550100). Use update_contact to change a contact found by id, or to replace its tags.',
  updateContact:
    "Changes an existing contact found by contact_id or phone: only the fields given are written; tags given replace the contact's whole tag set; an empty string clears name or email; `opted_out` true opts the contact out of marketing (false opts them back in). With contact_id, a phone changes the number. Fails with not_found for an unknown contact (use create_contact to create one).",
  getContact:
    'Fetches one contact by exactly one of contact_id, phone or email, with its tags, custom attributes, opt-out state and latest message time. Use search_contacts to find contacts by part of a name, phone or email or by tag.',
  searchContacts:
    'Finds contacts: `query` is a case-insensitive substring of name, phone or email; `tag` and `email` filter exactly; filters combine with AND; no filter lists every contact. Ordered by latest message first. Returns a page of `data` (default 50, `limit` up to 500) and `next_cursor`: when next_cursor is not null, call again with the same filters and `cursor` = next_cursor to get the next page; null means there are no more.',
  listChannels:
    "Lists the workspace's business numbers (channels), the default first: each one's phone_number_id (pass it as `from_phone_number_id` to send from that number), display number, provider (whatsapp-cloud or simulator), Meta's quality rating and messaging limit tier. Without any channel the workspace uses the built-in simulator (id null).",
  addChannel:
    'Connects another WhatsApp Cloud number (phone_number_id, waba_id, access_token) or a simulated number. Meta is asked first whether the token may use the number; nothing is saved otherwise. The first channel, or one added with `default` true, becomes the default. A number already connected elsewhere fails with conflict.',
  removeChannel:
    'Disconnects a number by channel_id (from list_channels). Its messages stay; messages still queued on it fail rather than go out from another number. If it was the default, the oldest remaining channel becomes the default.',
  getOptOutSettings:
    "Shows how contacts opt out of marketing in this workspace: `stop_keywords` (a contact whose whole message, or tapped button, is one of them is opted out), `start_keywords` (opt back in) and `confirm` (the contact is told once, in the keyword's language, that they are unsubscribed). A contact's state is `opted_out` in get_contact.",
  updateOptOutSettings:
    'Changes the opt-out keywords (each list is replaced whole; a word may not be in both) or `confirm`. Matching ignores case, accents and surrounding punctuation, so list each word once. To opt one contact out or back in, use update_contact with `opted_out`.',
  getBusinessHours:
    "Shows the workspace's business hours: `time_zone`, `weekly` (each weekday's open intervals, local HH:MM; an empty day is closed), `holidays` (local dates closed all day), `away_message`, whether the away reply is `enabled`, and `open_now`. Needs the manage_workspace permission.",
  updateBusinessHours:
    'Replaces the business hours (all fields required). While `enabled`, a customer who writes outside the hours gets `away_message` once per conversation opening, as a free-form reply inside the window their message opened (never a template; not to opted-out contacts). Intervals may not overlap; "24:00" closes at midnight.',
  getMarketingMessagesSettings:
    "Shows whether MARKETING template messages go through Meta's Marketing Messages API (`enabled`; off by default), and who confirmed Meta's terms were accepted, and when. Needs the manage_channel permission.",
  updateMarketingMessagesSettings:
    "Turns Meta's Marketing Messages API on or off for marketing templates (single sends, campaigns, sequences, flows); other messages always go through Cloud API. Turning it on needs `meta_terms_accepted: true`, only once the business accepted Meta's terms in WhatsApp Manager (Meta refuses every such send otherwise). Messages sent through it show `sent_via: marketing_messages`.",
  setUpFlowsEncryption:
    "Gives a number (channel_id from list_channels) a new RSA 2048 key pair for WhatsApp Flows that fetch data from an endpoint, and registers its public key with Meta; the private key stays encrypted in Parley. It replaces the number's earlier pair. Answers the number's Flows endpoint: `endpoint_url` (the URI to give the Flow) and `key_status` (valid once Meta holds the key). Needs the manage_channel permission; Meta refusing the key is a conflict in Meta's words.",
  getFlowsEndpoint:
    "Shows a number's WhatsApp Flows data endpoint: `endpoint_url` (the Flow's endpoint URI), `key_status` as Meta says now (not_set_up: call set_up_flows_encryption; mismatch or missing_at_meta: call it again), the registered `public_key`, `answered_by` (who answers each screen: the business endpoint at `business_endpoint_url`, or Parley's `screen_answers`), and `error_notifications`, the latest errors Meta's Flow client reported. Needs the manage_channel permission.",
  setFlowsScreenAnswers:
    "Lets Parley answer a number's WhatsApp Flow screens without the business's own server (`answered_by: parley`), or relay them to the business endpoint again (`business_endpoint`; the table is kept). `screen_answers` is the whole table, one row per screen: `screen` null answers the Flow opening (INIT), a screen id answers that screen's submission, with `next_screen` and its `data`; `next_screen: SUCCESS` closes the Flow with the row's data as the params of the customer's reply. Data values are text with {{contact.first_name}}, {{contact.name}}, {{contact.phone}}, {{attributes.KEY}} and {{context.FIELD}} (what the customer entered on an earlier screen). Read it first with get_flows_endpoint: this replaces it. Needs the manage_channel permission.",
  getAiSettings:
    "Shows the workspace's own AI model: whether it is `enabled`, the OpenAI-compatible `base_url`, the chat `model`, the `embeddings_model` (null: none), `timeout_seconds`, the `monthly_token_budget` and the prices per million tokens. The API key is never shown (`api_key_set` says whether one is saved). Needs the manage_workspace permission.",
  saveAiSettings:
    "Sets the workspace's AI model; only the fields given are written. Turning it on (`enabled` true) needs a base_url, a model and an api_key (given now or saved before). base_url is the API base up to /v1 (https://api.openai.com/v1; a local Ollama http://localhost:11434/v1 only where the operator allows private endpoints). Nothing is called: use test_ai_settings to try it.",
  testAiSettings:
    "Tries the AI model with one real round trip, saving nothing: the saved settings with the fields given on top ask the model for one word (and the embeddings model, if set, for one vector). Answers `ok`, the model's answer time `model_ms`, or `problem` (reason: not_configured, timeout, rate_limited, budget_exhausted, model_error, with the endpoint's own words). Its tokens count as `test` in get_ai_usage.",
  getAiUsage:
    "This calendar month's (UTC) AI model calls and tokens by purpose (assistant, copilot, eval, test, embeddings), with `tokens_used`, the `monthly_token_budget`, `tokens_left` and the cost by the saved prices. Once the budget is spent, every call is refused until the next month.",
  getCopilotStatus:
    "Says whether the copilot (suggest_reply, summarize_conversation, rewrite_draft) can be asked now: `available`, else `reason` not_configured (no AI model turned on; an owner or admin sets one with save_ai_settings) or budget_exhausted (this month's token budget is spent). Calls no model.",
  suggestReply:
    "Drafts the business's next message in a conversation (by contact_id) for a person to edit and send: from the latest messages and the workspace's knowledge found for what the customer last asked, in the customer's language, stating only what the knowledge says (no price, refund, date or promise it does not state). Sends nothing: use send_text_message to send the reply once a person has read it. `citations` are the knowledge chunks it relies on. Fails with ai_model_not_configured (422), ai_budget_exhausted (429), ai_model_failed (502), ai_model_rate_limited (503, retry after retry_after seconds), ai_model_timeout (504) or conversation_empty (422).",
  summarizeConversation:
    'Summarises a conversation (by contact_id) in a few sentences: what the customer wants, what the business said or did, what is open; in `language` (a BCP 47 tag, English by default). A long thread is summarised from its latest messages (`earlier_left_out`). Changes nothing. Fails as suggest_reply does.',
  rewriteDraft:
    "Rewrites a draft message for a conversation (contact_id, text): `style` shorter or friendlier keeps its language, translate writes it in the customer's language (their contact's `language` attribute, else the language of their messages). Keeps the draft's facts and adds none. Sends nothing. Fails as suggest_reply does, or with customer_language_unknown (422) for a translation when the customer never wrote and has no language attribute.",
  getSatisfactionSurveySettings:
    'Shows whether closing a conversation asks the customer for a 1–5 rating (`enabled`; off by default). Ratings appear in the thread and per agent in the reports.',
  updateSatisfactionSurveySettings:
    'Turns the satisfaction survey on or off. When on, an agent closing a conversation sends a WhatsApp list message with five ratings, only while the customer window is open and not to opted-out contacts.',
  getAssistantSettings:
    "Shows the workspace's AI assistant on conversations: whether it is `enabled` (off by default), where it answers (`channel_ids` and `team_ids`, empty meaning all; `hours`: always, outside_hours or inside_hours), its `name`, tone `instructions`, `reply_limit` per conversation, `confidence_floor`, extra `stop_words` and the `handover_message` the customer is told once when a person takes over.",
  updateAssistantSettings:
    "Replaces the AI assistant settings (all fields required: read them with get_assistant_settings first). When enabled, the assistant answers customers inside the 24-hour window from the knowledge only, citing it, and hands the conversation to a person (Needs a person, with a summary note) on a stop word, past the reply limit, below the confidence floor, on an unsupported price or date, or when the model fails. It stops in conversations a person replied in or was assigned. Needs the automation permission; channel and team ids must be this workspace's.",
  listAssistantTurns:
    "Lists the AI assistant's turns in one conversation (by contact_id), newest first: the action it took (reply, hand_over, close), the hand-over `reason` and `summary`, the knowledge it cited (chunk ids with the text as cited), its confidence, tokens and time. Use list_messages for the messages themselves (the assistant's have sender type `ai`).",
  getAgentReport:
    'Answers "who is behind?" and "how is the team doing this week?": for each member (and everyone) over days in the workspace\'s time zone (default the last 30): conversations handled, messages sent, first response and resolution times (median and p90, seconds; first response counts every conversation first answered in the range, open or closed), the open backlog now (count, oldest and median age: large numbers mean the person is behind), and satisfaction ratings (count, average 1–5, share of 4–5). Narrow with phone_number_id, team_id or label. agent null is no one (API-token replies, unassigned open conversations). Needs the reports permission; use get_team_report for the same figures per team.',
  getTeamReport:
    "The per-agent report's figures per team queue (the conversations currently in each team's queue; team null: in no queue) and everyone: conversations handled, messages sent, first response and resolution (median and p90 seconds), open backlog now with its oldest and median age, satisfaction ratings. Use it to see which team is behind; get_agent_report for individual members. Same filters (from, to, phone_number_id, team_id, label).",

  addTag:
    'Adds one tag to a contact (by contact_id or phone); an unknown tag is created. Adding a tag can enrol the contact in sequences that start on that tag. Returns the contact.',
  removeTag:
    'Removes one tag from a contact (by contact_id or phone); removing a tag the contact does not carry changes nothing. Returns the contact.',
  listTags:
    "Lists the workspace's tags (optionally those whose name contains `name`), alphabetical. Returns a page of `data` and `next_cursor`: pass next_cursor as `cursor` to get the next page (`limit` up to 500); null means no more.",
  renameTag:
    'Renames a tag (found by its current name, case-insensitive); contacts keep it under the new name. Sequences, flows and campaigns that name the old tag are not rewritten. Fails with conflict when another tag already has the new name.',
  deleteTag:
    'Deletes a tag (found by name, case-insensitive) and removes it from every contact. To take a tag off one contact only, use remove_tag.',

  stopFlowRun:
    "Stops a contact's flow run that is still going (by run_id, the id trigger_flow returns): it becomes cancelled and the contact's next message no longer answers it. Fails with conflict when the run already ended.",
  stopSequenceEnrolment:
    'Takes a contact out of a sequence (by enrolment_id, the id trigger_sequence returns): the enrolment exits with reason "stopped" and no further step is sent. Fails with conflict when it already ended.',

  getTemplate:
    "Fetches one WhatsApp message template by template_id: its body, header, buttons, the placeholders {{1}}, {{2}}… it expects, `variables` (every id a send must fill: body, header and button variables), `missing_capabilities`, its translations and each one's approval status. Call it before send_template_message to know which `variables` to pass and which language is APPROVED.",
  createTemplate:
    'Creates a WhatsApp message template and submits each translation to Meta for review (the simulator approves after a short delay). Give `examples`: a sample value for every variable, keyed "1", "2"… for the body, "header_1" for a text header, "button_<index>_1" for a URL button. The template starts PENDING; check get_template later for APPROVED or REJECTED (with `rejection_reason`). A refusal by Meta fails with template_refused naming the field.',
  updateTemplate:
    "Edits a template's category and translations (matched by language; a new language is added) and submits them to Meta for review again: the edited translation is PENDING until Meta decides. Needs examples like create_template. Meta never renames a template.",
  deleteTemplate:
    'Deletes a template at Meta and in Parley: every translation, or only `language`. Messages already sent are kept. Fails with template_refused, deleting nothing, when Meta refuses.',
  listTemplates:
    'Lists message templates, alphabetical, optionally filtered by name substring and by translation status (e.g. "APPROVED", the only ones that can be sent). Returns a page of `data` and `next_cursor`: pass next_cursor as `cursor` for the next page (`limit` up to 500); null means no more.',

  sendTextMessage:
    "Sends a free-form text to a contact (by contact_id or phone; up to 4096 characters). Only allowed within 24 hours of the contact's latest inbound message (WhatsApp's customer service window): outside it the call fails with customer_service_window_closed, and you must use send_template_message instead. Contacts who opted out cannot be messaged. The message is queued and delivered in the background; check it later with get_message.",
  sendTemplateMessage:
    'Sends an approved WhatsApp template to a contact (by contact_id or phone; an unknown phone becomes a new contact). Always allowed, also outside the 24-hour window: use it to start or resume a conversation. The translation (`language`, default the one get_template shows) must be APPROVED, and `variables` must give every variable get_template lists under `variables`, keyed by its id (body "1"/"2" or a name, "header_1", "button_0_1", "button_1_coupon_code"; an array fills the body in order); a media header uses header_media_url, else the template’s own sample. Queued and delivered in the background; check with get_message.',
  markAsRead:
    'Tells a contact their message (`message_id`, one they sent) was read: WhatsApp shows blue ticks on it and every earlier message. With `typing_indicator` true the contact also sees that a reply is being typed (until it is sent, or 25 seconds): use it just before a reply that takes a moment.',
  uploadMedia:
    "Uploads a file (base64 `data` with its `mime_type`) for send_media_message, which then takes the answered `media_id`. WhatsApp's limits are checked first, and the bytes must be of the declared `mime_type` (else a 422 media_type_mismatch): image jpeg/png ≤ 5 MB, video mp4/3gpp ≤ 16 MB, audio ≤ 16 MB, document (pdf, text, Office) ≤ 100 MB, sticker webp ≤ 100 KB (animated 500 KB). Prefer send_media_message with a public `media_url` when the file is already online.",
  sendMediaMessage:
    "Sends an image, video, audio, document or sticker to a contact (by contact_id or phone): give `type` and either `media_url` (a public https URL) or `media_id` from upload_media; `caption` for image/video/document, `filename` for documents. Like send_text_message, only within the 24-hour customer service window. `reply_to_message_id` quotes one of the contact's messages.",
  sendInteractiveMessage:
    'Sends tappable choices: `type` "button" with 1-3 `buttons` ({id, title ≤ 20 chars}), "list" with a `button` label and `sections` (≤ 10 rows in all), "cta_url" with `display_text` and `url`, or "call_permission_request" (asks whether the business may call them on WhatsApp; `body` only). `body` is the text; optional `header` and `footer`. The customer\'s tap arrives as an inbound message carrying the id; their call permission answer also shows on the contact (`call_permission`). Only within the 24-hour window.',
  sendLocation:
    'Sends a map pin (`latitude`, `longitude`, optional `name` and `address`) to a contact. Only within the 24-hour customer service window.',
  sendContacts:
    "Sends contact cards in WhatsApp's format: each has `name.formatted_name`, and optionally phones (a `wa_id` adds a Message button), emails, urls, org, addresses, birthday. Only within the 24-hour customer service window.",
  sendReaction:
    "Reacts with an emoji to one of a contact's messages (`message_id`, Parley's id; it must have reached WhatsApp); an empty `emoji` removes the reaction. Only within the 24-hour customer service window.",
  getHeldSend:
    'Follows a send your token made while in approval mode (get_me shows token.mode "approval"): such a send answers status "awaiting_approval" and an id instead of a message. Pass that id as held_send_id: `awaiting_approval` (a person has not decided; it expires at `expires_at`), `approved` (sent: `message_id` is the message, `edited` true when the person changed your text), `rejected` (never sent; `note` may say why: do not send the same again) or `expired` (never sent).',
  getMessage:
    "Fetches one message by message_id: its direction, content, delivery status (queued, sent, delivered, read, failed, or received for inbound), what WhatsApp reported with it (pricing, conversation) and, when it failed, WhatsApp's error with a plain-language reason. Use it to check whether a message you sent was delivered, and why not.",
  listWorkspaceEvents:
    "Reads the workspace's event log, newest first (`limit` default 50, at most 100): what Meta reported about the WhatsApp account and number — account updates (bans, violations, reviews), quality and messaging-limit changes, alerts, display-name decisions — webhook errors such as 130429 (rate limit), and every other WhatsApp webhook Parley does not model (calls, group changes, changes to the WhatsApp Business app’s contact book…), each with a one-line summary and Meta's object. Use it when sends fail unexpectedly or to check the account's health.",
  listMessages:
    "Reads a contact's conversation (by contact_id or phone): the latest messages in both directions, newest first, `limit` default 50, at most 100. Use it to see what the contact wrote and what was sent before answering; an inbound message within the last 24 hours means send_text_message is allowed.",
  simulateInboundMessage:
    'Test helper: pretends the contact with `phone` wrote `text` to the workspace. Works only while the workspace uses the built-in simulator channel (otherwise a conflict error). It behaves exactly like a real inbound message: it opens the 24-hour window, can start flows, and appears in new_message_received. Never use it on a real WhatsApp workspace.',

  triggerSequence:
    'Enrols a contact (by contact_id or phone; an unknown phone becomes a new contact) in a drip sequence, which then sends its steps on schedule. `context` values are readable by the steps as {{context.KEY}}. A contact can be in a sequence only once at a time (already_enrolled otherwise). Find sequence ids with dropdown_sequences.',
  getSequence:
    'Fetches a drip sequence by id: its steps (waits, templates, tags, flows) and how many enrolments are running, finished or stopped. Find sequence ids with dropdown_sequences.',
  saveSequence:
    'Creates a drip sequence (without `id`) or replaces the name and steps of an existing one (with `id`; running enrolments continue with the new steps). Names are unique per workspace. Templates and flows the steps name must belong to the workspace; validation errors name the JSON Pointer of the bad field. Read the current definition with get_sequence first when changing one.',
  triggerFlow:
    'Starts a chatbot flow for a contact (by contact_id or phone; an unknown phone becomes a new contact): the flow runs from its first node until it waits for a reply or ends. `context` values are readable by the nodes as {{context.KEY}}. A run the contact was waiting in is cancelled. Free-form nodes need the 24-hour window; outside it the run fails. Find flow ids with dropdown_flows.',
  getFlow:
    'Fetches a chatbot flow by id: the live version (`version`) and its nodes, the unpublished `draft` with its `problems` (or null), and how many runs are waiting, finished or failed. Find flow ids with dropdown_flows.',
  saveFlow:
    'Creates a chatbot flow (without `id`) or replaces one (with `id`), publishing the definition as its next version at once; runs in progress finish on the version they started on. The whole definition is checked first: every problem names its JSON Pointer (e.g. /definition/nodes/3/next). Names are unique per workspace. Read the current definition with get_flow first when changing one; to change a live flow step by step, use save_flow_draft and publish_flow.',
  saveFlowDraft:
    "Keeps a definition as a flow's draft without making it live, however incomplete: the result (the flow as get_flow shows it) lists the draft's `problems` at their JSON Pointers (e.g. /definition/nodes/3/next). Fix them with further drafts, then publish_flow. The flow must exist (create it with save_flow).",
  publishFlow:
    "Makes a flow's draft (save_flow_draft) its live version, numbered one more. Refused with validation_failed naming each problem's JSON Pointer while the draft has problems, and with conflict when there is no draft. Runs in progress finish on the version they started on.",
  getFlowStats:
    'Counts the runs of one version of a flow (the live one unless `version` is given): how many passed each edge (`from` node, `exit` such as next, branches/0/next, default, on_timeout, on_error, `to` node) and how many are at, or ended at, each node by state. Use it to see where contacts drop out of a flow. With `run_id`, the path of that one run (a try_flow run).',
  tryFlow:
    "Tries a flow in the simulator: starts a try-run of its draft (its live version when it has none) for the workspace's try contact (+14155550199). Answer as that contact with simulate_inbound_message and follow the path with get_flow_stats and `run_id`. Only on the simulator channel (conflict otherwise); a draft with problems is refused like publish_flow; try-runs count in no statistics and reach no customer.",
  dropdownSequences:
    'Lists every drip sequence of the workspace as {id, label} (label is the name). Use it to find the sequence_id for trigger_sequence or get_sequence.',
  dropdownFlows:
    'Lists every chatbot flow of the workspace as {id, label} (label is the name). Use it to find the flow_id for trigger_flow or get_flow.',

  createCampaign:
    'Broadcasts an approved template to an audience, now or at `scheduled_at`: the audience is exactly one of {"tag": "…"}, {"contact_ids": [...]} (up to 10,000) or {"search": {"query", "tag", "email"}} (every match). Variables may use {{contact.name}}, {{contact.phone}}, {{contact.email}} and {{attributes.KEY}}, filled per recipient. The template is checked now, so a campaign that could not be sent is refused here. Use send_template_message for a single contact. Follow progress with get_campaign.',
  getCampaign:
    'Fetches a campaign by campaign_id with its live delivery counts (each message counted once under its current status) and how many recipients replied.',
  listCampaigns:
    'Lists campaigns, newest first, optionally only those in one `status` (scheduled, sending, sent, cancelled, failed), at most 100, each with live counts.',
  resendCampaign:
    "Sends a sent campaign again, as a new campaign of the same template and variables, to its recipients whose message was delivered (or sent) but not read: failed and opted-out recipients are left out. Sends now, or at `scheduled_at`. One resend per campaign: calling again returns the same resend, so it is safe to retry. Fails with a conflict when the campaign is not sent yet. get_campaign_report shows each campaign's `not_read` count and whether it was resent.",
  getCampaignReport:
    "Campaign outcomes over a date range (`from`/`to`, YYYY-MM-DD in the workspace's time zone; default the last 30 days): per campaign dispatched then, the funnel sent → delivered → read → replied → opted out and failed (sent ≥ delivered ≥ read), failures grouped by Meta's error code with what each means, `not_read`, and the cost of Meta's billable messages priced by category and the recipient's country (the workspace's own rates, else Meta's published USD rate card). Narrow with phone_number_id, team_id or label. Use it to answer \"how did last week's campaign do\" or \"what did it cost\".",
  getAiReport:
    'How the AI assistant did over a date range (`from`/`to`, YYYY-MM-DD in the workspace\'s time zone; default the last 30 days): the conversations it handled (first turn in the range) and how they ended — answered, handed over (with the reasons), resolved without a person (closed with no person taking part and not reopened within 7 days), reopened within 7 days, or still inside those 7 days — per day; its turns and their time (the model\'s and the rest, p50/p99); satisfaction ratings of conversations it handled alone, with a person, and people alone; its tokens and their cost; the usage ledger by purpose; what Meta charged for its messages. Use it to answer "is the assistant worth it" or "why does it hand over". Same filters as the other reports.',
  getCostLedger:
    'The cost ledger over a date range (`from`/`to`, YYYY-MM-DD in the workspace\'s time zone; default the last 30 days): what the messages Meta charged for cost, added up by `group_by` day, channel (sending number) or campaign, each message priced by its category and recipient\'s market with the workspace\'s rate card in effect when it was sent, else its rate per category, else Meta\'s published USD card. `unpriced` counts charged messages no rate priced. Use it to answer "what did WhatsApp cost us this month" or "which number costs most".',
  estimateCampaign:
    'Estimates what a campaign would cost before creating it (nothing is created or sent): the same body as create_campaign (template, variables, audience); answers the messages it would send, their cost by market and category at the rates in effect now, and how many no rate prices.',
  cancelCampaign:
    'Cancels a scheduled or sending campaign: a scheduled one is not sent; a sending one stops (messages already handed to WhatsApp cannot be recalled). Fails with a conflict when the campaign is already sent, cancelled or failed.',

  newMessageReceived:
    'Trigger feed of inbound messages from contacts, newest first (optionally only one message_type). Use it to find new messages to react to; to read one conversation use list_messages. Returns a page of `data` and `next_cursor` (pass it as `cursor` for older records; `limit` up to 500). A call without `cursor` is a poll, allowed once per workspace poll interval per feed (get_me shows it, default 30 s; a faster poll fails with poll_too_frequent and retry_after seconds); following pages with `cursor` are not limited by the interval.',
  newCampaignSent:
    'Trigger feed of campaigns that finished sending, newest first. Returns a page of `data` and `next_cursor` (pass it as `cursor` for older records; `limit` up to 500). A call without `cursor` is a poll, allowed once per workspace poll interval per feed (default 30 s); following pages with `cursor` are not limited by it.',
  newFlowTriggered:
    'Trigger feed of flow runs that started, newest first (optionally for one flow_id). Returns a page of `data` and `next_cursor` (pass it as `cursor` for older records; `limit` up to 500). A call without `cursor` is a poll, allowed once per workspace poll interval per feed (default 30 s); following pages with `cursor` are not limited by it.',
  newSequenceTriggered:
    'Trigger feed of sequence enrolments, newest first (optionally for one sequence_id). Returns a page of `data` and `next_cursor` (pass it as `cursor` for older records; `limit` up to 500). A call without `cursor` is a poll, allowed once per workspace poll interval per feed (default 30 s); following pages with `cursor` are not limited by it.',
  newWhatsappFlowAnswer:
    "Trigger feed of completed WhatsApp Flows (Meta's forms), newest first (optionally for one whatsapp_flow_id): each with the send it answers, the contact and the fields labelled as the form labels them. Returns a page of `data` and `next_cursor` (pass it as `cursor` for older records; `limit` up to 500). A call without `cursor` is a poll, allowed once per workspace poll interval per feed (default 30 s); following pages with `cursor` are not limited by it.",
  listGroups:
    "Lists the workspace's WhatsApp groups (Meta's Groups API), the latest conversation first: each with its subject, participants (at most 8), invite link and state (creating, active, failed, suspended, deleted).",
  getGroup:
    'Gets one WhatsApp group by `group_id`: subject, description, participants, invite link and state, as Meta’s group webhooks last said.',
  listWhatsappFlows:
    "Lists the WhatsApp Flows (Meta's forms: screens a customer fills in inside WhatsApp; not Parley's chatbot flows of save_flow) Parley knows of the WhatsApp Business Account, by name; `status` PUBLISHED lists those that can be sent. Call sync_whatsapp_flows first to include Flows made in WhatsApp Manager.",
  getWhatsappFlow:
    "Asks Meta for one WhatsApp Flow by `whatsapp_flow_id`: its status (DRAFT, PUBLISHED, DEPRECATED, BLOCKED, THROTTLED), Meta's validation errors of its Flow JSON and a fresh `preview_url` showing it as WhatsApp would.",
  listWhatsappFlowAlerts:
    "Lists what Meta's Flows webhooks said of one WhatsApp Flow (`whatsapp_flow_id`), newest first: status changes (Meta may throttle or block a Flow whose data endpoint fails), error rate, latency and availability alerts of its endpoint (`alert_state` ACTIVATED or DEACTIVATED), and a Flow JSON version about to expire, each with Meta's words and figures.",
  syncWhatsappFlows:
    "Reads every Flow of the workspace's WhatsApp Business Account from Meta: Flows made elsewhere are added (without their Flow JSON), changed ones updated, deleted ones forgotten. Needs the templates permission and a WhatsApp Cloud number.",
  createWhatsappFlow:
    "Creates a WhatsApp Flow at Meta as a DRAFT: `name` (unique in the account) and `categories` (SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, SHOPPING, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER); `clone_whatsapp_flow_id` starts from another's Flow JSON. Then give its screens with update_whatsapp_flow_json and publish it. Needs a WhatsApp Cloud number (conflict on the simulator).",
  updateWhatsappFlowJson:
    "Uploads a draft WhatsApp Flow's Flow JSON (`flow_json`, the document as text: `version`, `screens` each with an `id` and a SingleColumnLayout `layout` of components). Meta keeps it even when invalid; then the answer is validation_failed whose `errors` name each problem by line, column and JSON path, and `validation_errors` are Meta's: fix them and upload again before publishing.",
  publishWhatsappFlow:
    'Publishes a draft WhatsApp Flow without validation errors: from then on it can be sent to customers, and its Flow JSON no longer changes (Meta refuses with conflict otherwise).',
  deprecateWhatsappFlow:
    'Deprecates a published WhatsApp Flow: it can no longer be sent; customers who already have it may still fill it in.',
  deleteWhatsappFlow:
    'Deletes a draft WhatsApp Flow at Meta and in Parley. Meta deletes only drafts: deprecate a published one instead (conflict otherwise).',
  sendWhatsappFlow:
    "Sends a published WhatsApp Flow (Meta's form, from list_whatsapp_flows with status PUBLISHED) to a contact (`contact_id` or `phone`) as Meta's interactive flow message: `body` text and a `cta` button that opens it on `screen` (default: its first) with `data`, or with `flow_action` data_exchange as its data endpoint decides. Only inside the 24-hour customer service window (otherwise send a template with a FLOW button). Parley makes the send's flow_token (in content.interactive.action.parameters) and links it to the message, so the customer's answer names this send.",
  listWhatsappFlowAnswers:
    "Lists the answers customers sent to WhatsApp Flows (Meta's forms), newest first: of one Flow (`whatsapp_flow_id`), of one contact (`contact_id`), or both. Each has the Flow and the send it answers (by flow_token; null for a Flow sent from elsewhere), the contact, and `fields`: name, label (from the Flow JSON) and value as Meta sent it. Returns a page of `data` and `next_cursor` (pass it as `cursor` for older answers; `limit` up to 500).",
  setWhatsappFlowAttributes:
    'Chooses which answer fields of a WhatsApp Flow fill which contact custom attributes: `answer_attributes` is the whole mapping `{ "field name": "attribute_key" }` (`{}` for none), the field names from the Flow\'s `answer_fields` (get_whatsapp_flow). Each answer that arrives afterwards sets those attributes on its contact. Needs the templates permission.',
  createGroup:
    'Asks Meta to create a WhatsApp group on a workspace number (`subject`, optional `description`, `join_approval`). It answers state `creating`; Meta confirms by webhook, then the group is `active` with its invite link. People join only by that link: share it with get_group_invite_link.',
  getGroupInviteLink:
    "Asks Meta for a group's current invite link (the only way people join); send it to the customers you want in the group.",
  listGroupMessages:
    "Reads a group's conversation, newest first (`limit`, `before_message_id` for the next page). A participant's message names its author in `content.sender` (wa_id, name); group messages never appear in a contact's one-to-one thread.",
  sendGroupText:
    'Writes a text to a WhatsApp group (`group_id`, `message`), sent from the group’s number. No customer service window applies to groups; a group that is not active answers conflict.',
  sendGroupMedia:
    'Sends an image, video, audio, document or sticker to a WhatsApp group: `media_id` from upload_media or a public https `media_url`, with an optional caption.',
  sendGroupTemplate:
    'Sends an approved template to a WhatsApp group (`template_id`, optional `language`, `variables`). Variables are sent as given: a group has no contact whose fields fill placeholders.',
  listQuickReplies:
    "Lists the workspace's quick replies (saved answers staff insert with `/shortcut` in the inbox), by shortcut; `query` matches the shortcut or the answer. Use an answer's `body` as the text of send_text_message to answer a customer the way the team does.",
  createQuickReply:
    'Saves an answer (`body`) under a `shortcut` (letters, digits, - and _; a leading / is dropped). A shortcut already used in the workspace fails with conflict: use update_quick_reply to change it.',
  updateQuickReply:
    'Changes a quick reply (by quick_reply_id from list_quick_replies): its shortcut, its answer, or both; fields not given keep their value.',
  deleteQuickReply: 'Deletes a quick reply by quick_reply_id and returns it as it was.',

  listKnowledgeSources:
    "Lists the workspace's knowledge sources (what its AI teammate answers from): Q&A pairs (kind qa), documents, and the approved templates and quick replies when switched on; each with chunk_count, how many chunks have a vector (embedded_count) and its state. `kind` narrows the list. Use get_knowledge_source for a source's whole text and chunks, search_knowledge to find what answers a question.",
  getKnowledgeSource:
    'Fetches one knowledge source by source_id (from list_knowledge_sources): its whole answer or document text (`content`) and its chunks in order, each with the id search_knowledge cites.',
  createKnowledgeQa:
    'Adds a question (as a customer would ask it) and its answer to the knowledge; it is searchable at once. Prefer one short pair per fact. Needs the automation permission.',
  createKnowledgeDocument:
    "Adds a document to the knowledge: typed `content` (format markdown, the default, or text) with a `title`, or a `file` ({name, data: base64}) ending in .txt or .md (titled by its name unless `title` is given). At most document_max_bytes (get_knowledge_settings) of UTF-8 text. Markdown headings become each chunk's heading path. Needs the automation permission.",
  updateKnowledgeSource:
    'Changes a knowledge source by source_id: a Q&A pair takes `question` and/or `answer`; a document `title`, `content` or `file`, and `format`. Fields not given keep their value; the source is indexed again at once. Templates and quick replies cannot be edited here (change them with the template and quick reply tools). Needs the automation permission.',
  deleteKnowledgeSource:
    'Deletes a knowledge source by source_id, with its chunks, and returns it as it was. Deleting the templates or quick replies source switches it off. Needs the automation permission.',
  getKnowledgeSettings:
    "Shows whether the workspace's approved templates and quick replies are knowledge sources, the embeddings model last used (null: search is full-text only) and the largest document allowed (document_max_bytes).",
  updateKnowledgeSettings:
    'Switches the approved templates and/or the quick replies on (indexed now and kept current as they change) or off (their chunks deleted) as knowledge sources. Needs the automation permission.',
  searchKnowledge:
    "Finds the knowledge chunks that best answer `query` (a customer's question, in any language), best first, up to `limit` (default 5, at most 20): each with its id (cite it), source (id, kind, title), heading, text and score. retrieval is hybrid when the workspace's embeddings model took part, full_text otherwise. Answer only from the texts returned; if none fits, say so rather than guess.",

  listConversations:
    'Lists conversations newest first (by latest message). `status`: open (the default; the customer wrote and no one closed or snoozed it), closed or snoozed; `assignee_id` (a member id, or "none" for unassigned), `label` (a label name) and `priority` narrow it. A conversation is addressed by its contact_id. Returns a page of `data` and `next_cursor`: pass next_cursor as `cursor` with the same filters for the next page; null means no more.',
  getConversation:
    "Fetches one conversation by its contact_id: status (open, closed, snoozed), priority, labels, assignee_id, snoozed_until, unread count and whether a flow handed it to a person. Use get_contact for the contact's own details and list_messages for its messages.",
  addConversationNote:
    'Adds a private note to a conversation (by contact_id): the team sees it in the thread; it is never sent to the customer. To message the customer use send_text_message instead.',
  setConversationLabels:
    "Replaces a conversation's labels with those named (`labels`: names of the workspace's conversation labels, see list_conversation_labels; [] removes all). Labels are not the contact's tags (use add_tag for those). Returns the conversation.",
  setConversationPriority:
    'Sets how urgent a conversation is (by contact_id): none, low, medium, high or urgent. Returns the conversation.',
  closeConversation:
    "Closes a conversation (by contact_id), e.g. when a bot or a person has finished with it; the customer's next message reopens it. Closing a closed one changes nothing. Returns the conversation.",
  reopenConversation:
    'Opens a closed or snoozed conversation again (by contact_id) so it shows in the open list. Returns the conversation.',
  snoozeConversation:
    "Snoozes a conversation (by contact_id): it leaves the open list until `until` (ISO 8601, at most a year ahead) or, with `until` null, until the customer writes again; the customer's message always ends a snooze. Returns the conversation.",
  unsnoozeConversation: 'Ends a snooze now (by contact_id): the conversation is open again. Returns the conversation.',
  bulkConversations:
    'Runs one action on many conversations: `action` close, reopen, assign (with `user_id`, null unassigns), label (with `labels` to add), priority (with `priority`), snooze (with `until`) or unsnooze; on `contact_ids`, or on every conversation `filter` matches (same filters as list_conversations, all pages, at most 10,000), or on the ids among those. Returns how many matched and how many changed.',
  listConversationLabels:
    "Lists the workspace's conversation labels (id, name, colour), alphabetical. These label conversations; they are not the contacts' tags.",
  createConversationLabel:
    'Creates a conversation label: a name unique in the workspace (case-insensitive) and a colour (#rrggbb, grey by default). Needs an owner or admin. Fails with conflict when the name is taken.',
  updateConversationLabel:
    'Renames or recolours a conversation label (by label_id); conversations keep it. Needs an owner or admin.',
  deleteConversationLabel:
    'Deletes a conversation label (by label_id) and removes it from every conversation. Needs an owner or admin.',
  listTeams:
    "Lists the workspace's teams (e.g. Sales, Support), alphabetical, each with its members and whether each member is available. Returns a page of `data` and `next_cursor`: pass next_cursor as `cursor` for the next page; null means no more. Use a team's id with assign_conversation.",
  createTeam:
    'Creates a team with a name no other team has (ignoring case; conflict otherwise) and optionally its members (`member_ids`: user ids). Needs the routing permission (owners and admins).',
  updateTeam: 'Renames a team (by team_id); its conversations and routing rules follow. Needs the routing permission.',
  setTeamMembers:
    "Replaces a team's members (`member_ids`, by user id). Someone who leaves the team gives back the team's open conversations assigned to them: they return to the team's queue. Needs the routing permission.",
  deleteTeam:
    'Deletes a team (by team_id) and its routing rules; its conversations keep their person but no longer belong to a team. Needs the routing permission.',
  getAvailability: 'Shows whether the token’s user is available for conversations or away.',
  setAvailability:
    "Sets the token's user available (`available` true) or away (false). Away: automatic assignment passes them over and their open conversations return to the queue for the next available person.",
  getRoutingSettings:
    'Shows how conversations are routed: `auto_assign` (round-robin assignment among available people), `agent_limit` (most open conversations per person, null = no limit) and the ordered `rules` (number, keyword or tag → team).',
  updateRoutingSettings:
    'Changes the routing settings; fields not given keep their value and `rules` replaces every rule (first match picks the team when a conversation opens). A rule of kind `number` names a channel_id from list_channels. Needs the routing permission.',
  assignConversation:
    "Assigns a contact's conversation (by contact_id) to a team and/or a person: `team_id` and `assignee_id`, each null to clear. The person must be a member of the team when both are given. A team without a person puts the conversation in that team's queue, where automatic assignment (when on) picks the next available member. Use it for a bot to hand a conversation to people.",
  getVolumeReport:
    "How busy the workspace was: per day of the range (`from`/`to`, YYYY-MM-DD in the workspace's time zone; default the last 30 days) conversations opened and closed and messages received and sent, every day listed; the previous period of the same length for comparison, with `totals` and each total's change; and `hours_of_week`, the messages customers sent in each weekday × hour (0 = Sunday), to see when they write. Narrow by `phone_number_id`, `team_id` or `label`. Needs the reports permission.",
};

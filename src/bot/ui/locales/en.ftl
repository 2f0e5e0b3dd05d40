## kios: the bot's English texts (/lang en)
## rupiah amounts come formatted by the code (Rp10.000); texts may hold Telegram HTML.

# ---------------------------------------------------------------- general

welcome =
    Hi { $name }! 👋
    Welcome to <b>kios</b>: airtime, data packages, PLN tokens, e-wallets, game vouchers and bill payments.
    Pick from the menu below.
menu-title = What would you like to buy today?
menu-pulsa = 📱 Airtime & Data
menu-pln = ⚡ PLN Token
menu-ewallet = 👛 E-Wallet
menu-game = 🎮 Game Voucher
menu-bill = 🧾 Bills
menu-saldo = 💰 Balance
menu-history = 📜 History
menu-help = ❓ Help
menu-catalogue = 🛍 Catalogue
help-customer-title = <b>Help</b>
help-start = /start: main menu
help-saldo = /saldo: your balance
help-deposit = /deposit &lt;amount&gt;: top up, for example /deposit 100000
help-riwayat = /riwayat: recent orders
help-harga = /harga [brand|category]: price list, also as a picture
help-status = /status &lt;ref&gt;: one order's status
help-lang = /lang: change language (Bahasa Indonesia)
help-pin = /pin: protect your balance with a PIN
help-help = /help: this list of commands
help-cancel = /cancel: cancel what is in progress
help-reseller-title =
    <b>Reseller</b>
    Quick order: send <code>CODE.DESTINATION</code> or <code>CODE DESTINATION</code>, for example <code>TSEL10.081234567890</code>.
    Text commands with your PIN last: <code>CODE.DEST.PIN</code> buys at once without a card, <code>S.PIN</code> shows your balance, <code>CEK.DEST.PIN</code> today's orders to that number (needs /pin).
    Your /saldo also shows today's spending.
help-downline = /downline: your sign-up link and downlines
help-markup = /markup: your downlines' prices (admins: the shop's markup rules)
help-komisi = /komisi: commission per day and per downline
help-transfer = /transfer &lt;id&gt; &lt;amount&gt;: send balance to a downline
help-struk = /struk: the shop name and prices on receipts (and price-list pictures) for your buyers
help-api = /api: H2H API keys, callback URL and failed callbacks
help-admin-title = <b>Admin</b>
help-balance = /balance: every supplier's balance
help-sync = /sync: sync the catalogue
help-credit = /credit &lt;id&gt; &lt;amount&gt; [note]: credit a wallet
help-debit = /debit &lt;id&gt; &lt;amount&gt; [note]: debit a wallet
help-role = /role &lt;id&gt; customer|reseller: change a user's role
help-promote = /promote &lt;id&gt;: make a user a reseller
help-upline = /upline &lt;id&gt; &lt;upline id&gt;|none: move a user in the reseller tree
help-minmargin = /minmargin [rupiah|reset]: a route's minimum margin
help-stats = /stats: orders, revenue, margin
help-laporan = /laporan [7|30|90]: a chart of revenue, margin and orders
help-pending = /pending: stuck orders
help-broadcast = /broadcast &lt;text&gt;: message every user
help-user = /user &lt;id&gt;: user details
help-test = /test &lt;CODE.DESTINATION&gt;: a test order (testing mode, no money moves)
help-recon = /recon [supplier]: check the supplier balance against the books
help-supplier_topup = /supplier_topup [supplier] &lt;amount&gt; [note]: record a top-up of the supplier account · /supplier_topup &lt;supplier&gt; ticket &lt;amount&gt; &lt;bank&gt;: a deposit ticket (Digiflazz)
help-supplier_topup_reverse = /supplier_topup_reverse &lt;number&gt; [note]: reverse a top-up booked in error
help-payment = /payment &lt;number|order id&gt;: look up a QRIS top-up
help-export = /export &lt;YYYY-MM&gt;: a month's orders as CSV
help-resume = /resume &lt;CODE&gt;: reopen a paused product
help-routes = /routes &lt;CODE&gt;: a product's supplier routes, in the order they are tried
help-routeorder = /routeorder [cost|manual]: the order routes are tried in, manual or by cost
help-unlinked = /unlinked: other suppliers' products not linked yet
help-link = /link &lt;CODE&gt; &lt;supplier&gt; &lt;code at the supplier&gt;: link another supplier's product
unknown-command = Unknown command. Type /start to open the menu.
fallback = Sorry, I didn't get that. Pick from the menu below.
stale-button = This button is no longer valid.
error-generic = Sorry, something went wrong. Please try again in a moment.
cancelled = Cancelled.
cancelled-toast = Cancelled
nothing-to-cancel = Nothing is in progress.
language-choose = Pilih bahasa / Choose a language:
language-set = Language switched to English.
catalogue-loading = ⏳ The product catalogue is loading. Please try again in a moment.
no-products = Sorry, nothing is available here yet.

# ---------------------------------------------------------------- buttons

btn-cancel = ❌ Cancel
btn-pay = ✅ Pay
btn-pay-again = 🔁 Pay again
btn-top-up = 💳 Top up
btn-pulsa = Airtime
btn-data = Data package
btn-back = ◀️ Back
btn-buy-again = 🔁 Buy again
btn-requote = 🔄 Get the latest price
btn-reinquire = 🔄 Check the bill again
btn-confirm = ✅ Confirm
btn-reject = ❌ Reject
btn-recheck = 🔄 Re-check { $ref }

# ---------------------------------------------------------------- purchase steps

ask-phone = Enter the mobile number (e.g. 081234567890).
ask-phone-recent = Enter the mobile number, or pick a recent one:
hint-phone = That number isn't recognised. Use the 08…, 628… or +628… format.
ask-pulsa-or-data = Number { $phone } ({ $operator }). Airtime or a data package?
hint-buttons = Please choose with the buttons below.
pick-pulsa = { $operator } airtime for { $phone }:
pick-data = { $operator } data packages for { $phone }:
ask-meter = Enter the PLN meter number / customer ID (11–12 digits).
hint-meter = A meter number has 11 or 12 digits.
hint-meter-phone = That is a mobile number, not a meter number. The meter number (11 digits) or customer ID (12 digits) is on the meter or a PLN receipt.
pick-pln = Choose a token amount for meter { $meter }:
pick-ewallet = Choose an e-wallet:
pick-ewallet-amount = Choose a { $brand } amount:
ask-ewallet-number = Enter the { $brand } account's mobile number (e.g. 081234567890).
pick-game = Choose a game:
pick-game-item = Choose a { $game } item:
ask-game-id = Enter your { $game } account ID.
hint-game-id = That ID isn't valid: use digits or letters, 4–40 characters.
ask-game-zone = Enter your { $game } Zone ID / Server ID (the number in brackets).
hint-game-zone = The Zone ID is a number.
pick-bill-kind = Choose a bill type:
pick-bill-product = Choose a { $kind } product:
ask-customer-no = Enter the { $kind } customer number.
category-emoney = E-Wallet
category-pln = PLN Token
category-games = Game Voucher
category-voucher = Vouchers
category-sms-call = SMS & call packages
category-validity = Active period
category-streaming = Streaming
bill-kind-pln-postpaid = PLN Postpaid
bill-kind-bpjs-kesehatan = BPJS Kesehatan
bill-kind-bpjs-ketenagakerjaan = BPJS Ketenagakerjaan
bill-kind-pdam = PDAM (water)
bill-kind-telkom = Telkom
bill-kind-pbb = PBB (property tax)
bill-kind-multifinance = Multifinance (instalments)
bill-kind-hp-postpaid = Mobile postpaid
bill-kind-internet-postpaid = Internet postpaid
bill-kind-gas = Gas Negara (PGN)
ask-bill-phone = Enter the mobile number of { $kind }.
hint-customer-no = A customer number has 6–20 digits.
link-product = 🛒 <b>{ $product }</b> · { $price }
hint-link-destination = That destination does not fit { $product }. Check it.
bill-checking = 🔎 Checking the bill…
bill-none = There is no bill due for this number.

# ---------------------------------------------------------------- confirmation card

# how dates and months are written (Intl locale)
date-locale = en-GB
card-title = 🧾 <b>Confirm your purchase</b>
card-bill-title = 🧾 <b>{ $product } bill</b>
card-product = Product: { $product }
card-destination = Destination: <code>{ $destination }</code>
card-price = Price: <b>{ $price }</b>
card-name = Name: <b>{ $name }</b>
card-customer-no = Customer no.: <code>{ $number }</code>
card-tariff = Tariff/Power: { $tarif } / { $daya }
card-tariff-only = Tariff: { $tarif }
card-members = Members: { $count }
card-address = Address: { $address }
card-item = Item: { $item }
card-plate = Plate no.: { $plate }
card-tenor = Tenor: { $tenor }
card-due = Due date: { $date }
card-periods = Bill sheets: { $count }
card-period = • Period { $period }: { $amount } (penalty { $penalty })
card-bill-amount = Bill: { $amount }
card-admin = Admin fee: { $amount }
card-total = Total: <b>{ $price }</b>
card-balance = Balance: { $before } → { $after }
card-balance-now = Balance: { $balance }
card-testing = 🧪 Test mode: no balance is taken.
card-deadline = ⏱ Pay before <b>{ $time }</b> (valid for 5 minutes).
card-short = ⚠️ You are { $missing } short. Top up first with /deposit.
card-cancelled = ❌ Purchase cancelled.

# ---------------------------------------------------------------- quotes and payment

quote-unavailable = Sorry, this product is unavailable right now.
quote-invalid-destination = That destination doesn't fit this product.
quote-supplier-error = Sorry, the service is having trouble. Please try again later.
quote-expired = ⌛ This price has expired. Get the latest price in one tap.
quote-not-found = This offer is no longer available.
bill-expired = ⌛ The 5-minute payment window for this bill has passed. Check the bill again to pay.
pay-insufficient =
    ⚠️ <b>Not enough balance.</b>
    Price: { $price }
    Balance: { $balance }
    Missing: <b>{ $missing }</b>
    Top up with /deposit &lt;amount&gt; or the button below, then tap Pay again.
pay-error = ⚠️ Something went wrong while processing. Don't pay again yet: check /riwayat in a moment.

# ---------------------------------------------------------------- orders

order-processing = ⏳ <b>Processing</b>
order-success = ✅ <b>Successful</b>
order-failed = ❌ <b>Failed</b>
order-product = Product: { $product }
order-destination = Destination: <code>{ $destination }</code>
order-bill-name = Name: { $name }
order-bill-periods = Period: { $periods }
order-price = Price: { $price }
order-ref = Ref: <code>{ $ref }</code>
order-wait = The result will appear in this message.
order-sn = SN: <code>{ $sn }</code>
order-sn-missing = SN: -
order-token = Token: <code>{ $token }</code>
order-token-name = Name: { $name }
order-token-tariff = Tariff/Power: { $tarif } / { $daya }
order-token-kwh = kWh: { $kwh }
order-reason = Reason: { $reason }
order-reason-unknown = unknown
order-reason-destination = the destination number is not valid for this product
order-reason-product = the product is not available right now
order-reason-bill = the bill session expired; check the bill again
order-reason-service = the supplier's service is having trouble; please try again later
order-reason-not-processed = the supplier did not process the order
order-reason-supplier = the supplier could not process this order
bill-expired-nothing-charged = ⌛ The bill's payment window closed before the supplier received the payment. Nothing was charged. Check the bill again to pay it.
bill-already-paying = ⏳ This bill is already being paid (since { $time }). Wait for the result before paying again.
bill-already-paid = ✅ This bill was already paid at { $time }.
quote-cancelled = ❌ This purchase was cancelled; nothing was bought.
cancel-too-late = The payment is already being processed and can't be cancelled.
order-refunded = Balance refunded { $amount }.
order-testing = 🧪 Test mode: no money moved.
order-date = Time: { $date }
push-success = ✅ Order successful: { $product } to { $destination }.
push-failed = ❌ Order failed: { $product } to { $destination }. Balance refunded { $amount }.
status-success = successful
status-failed = failed
status-processing = processing
history-title = 📜 Order history (page { $page }/{ $pages })
history-empty = No orders yet.
status-usage = Use: /status &lt;ref&gt; (see the ref in /riwayat).
status-not-found = Order { $ref } not found.
quick-unknown-code = Product code { $code } is unknown or unavailable.
flagged-title = ⚠️ <b>Stuck order</b>
conflict-title = 🚨 <b>The supplier disagrees</b>
decide-title = ❓ <b>The supplier has no record of this order</b>, but may still make it. Refund the buyer, or keep waiting?
btn-decide-refund = ↩️ Refund
btn-decide-wait = ⏳ Keep waiting
decided-refund = ↩️ Refunded by an admin's decision.
decided-wait = ⏳ Still waiting; the order is checked regularly.
decide-settled = This order is already settled.
decide-supplier_knows = The supplier now knows this order: not refunded.
decide-not_found = Order not found.
overcharge-title = 💸 <b>The supplier charged more than quoted</b>
overcharge-body = Quoted { $quoted }, charged { $charged }: a loss of { $loss }.
conflict-body = kios settled this order as { $kios }, but the supplier now says { $supplier }. No money moved by itself: check with the supplier, then correct with /credit or /debit if needed.

# ---------------------------------------------------------------- balance and deposits

balance = 💰 Your balance: <b>{ $balance }</b>
balance-today = Spent today: { $spent }
balance-today-h2h = …of which over H2H (API): { $spent }
balance-top-up-hint = Top up: /deposit &lt;amount&gt;, e.g. /deposit 100000.
ask-deposit-amount = How much would you like to top up? Pick or type an amount (e.g. 150000).
hint-amount = That amount isn't valid. Type digits only, e.g. 150000.
deposit-usage = Use: /deposit &lt;amount&gt;, e.g. /deposit 100000.
deposit-created =
    💳 <b>Top-up request { $reference }</b>
    Amount: { $amount }
    Transfer exactly: <b>{ $pay }</b> (includes a unique code)
    Valid until: { $until }
deposit-too-small = The smallest top-up is { $min }.
deposit-too-large = The largest top-up is { $max }.
deposit-busy = Many requests have this amount right now. Try another amount.
deposit-confirmed = ✅ Top-up of { $pay } ({ $reference }) confirmed. Your balance is now { $balance }.
deposit-rejected = ❌ Top-up { $reference } was rejected. Contact the admin if you have already paid.
deposit-expired = ⌛ Top-up request { $reference } has expired.
deposit-pending = ⏳ Top-up request { $reference } is still waiting for confirmation.
deposit-admin-title = 💰 <b>Top-up request #{ $id }</b>
deposit-admin-user = From: { $user }
deposit-admin-amount = Amount: { $amount } · transfer { $pay }
deposit-admin-reference = Ref: <code>{ $reference }</code>
deposit-status-requested = Status: waiting
deposit-status-confirmed = Status: ✅ confirmed
deposit-status-rejected = Status: ❌ rejected
deposit-status-expired = Status: ⌛ expired
deposit-admin-confirmed = Confirmed, the wallet was credited.
deposit-admin-rejected = Rejected.
deposit-admin-already = This request was already decided.
deposit-admin-expired = This request has expired.
wallet-credited = 💰 An admin added { $amount } to your balance (note: { $note }). Your balance is now { $balance }.
wallet-debited = 💰 An admin took { $amount } from your balance (note: { $note }). Your balance is now { $balance }.

# ---------------------------------------------------------------- admin

admin-balance = 🏦 Supplier balance: <b>{ $balance }</b> (the supplier's answer just now, { $at })
admin-supplier-error = ⚠️ The supplier can't be reached ({ $code }).
admin-supplier-notice = ⚠️ Supplier notice: { $notice }
admin-balance-at = 🏦 <b>{ $supplier }</b> balance: <b>{ $balance }</b> (the supplier's answer just now, { $at })
admin-supplier-error-at = ⚠️ <b>{ $supplier }</b> can't be reached ({ $code }).
admin-balance-last = Last check #{ $id } ({ $at }): { $balance }, { $verdict }.
admin-balance-last-answer = Last reading #{ $id } ({ $at }, from the supplier's answer to order { $ref }): { $balance }, { $verdict }.
admin-balance-never = Never reconciled with kios's books (/recon).
admin-sync-started = 🔄 Syncing the catalogue…
admin-sync-done =
    ✅ <b>Catalogue synced</b> ({ $seconds } s)
    Total: { $total }
    New: { $added } · Changed: { $changed }
    Deactivated: { $deactivated } · Reactivated: { $reactivated }
    No longer listed: { $unlisted } · Price changes: { $prices }
admin-sync-suspicious = ⚠️ The supplier sent empty lists (nothing removed): { $lists }
admin-sync-failed = ⚠️ The sync failed ({ $code }). The catalogue is unchanged.
admin-adjust-repeated = This command was already carried out; the balance was not changed again.
admin-credit-usage = Use: /credit &lt;telegram_user_id&gt; &lt;amount&gt; [note]
admin-debit-usage = Use: /debit &lt;telegram_user_id&gt; &lt;amount&gt; [note]
admin-credit-done = ✅ Added { $amount } to user { $user }. Balance: { $balance }
admin-debit-done = ✅ Took { $amount } from user { $user }. Balance: { $balance }
admin-debit-insufficient = ⚠️ The user's balance is too low ({ $balance }).
admin-role-usage = Use: /role &lt;telegram_user_id&gt; customer|reseller
admin-role-done = ✅ User { $user } is now a { $tier }.
# a price tier in words (/role's answer, /user): the word the user is told, not the stored value
tier-customer = customer
tier-reseller = reseller
admin-role-demoted = Their markups stop now: their { $count } direct downlines pay what the level above charges. Their margins and H2H access stop too. The downlines stay under them until moved (/upline).
role-now-reseller =
    🎉 You are now a <b>reseller</b>: reseller prices apply to your purchases.
    /downline: invite downlines with your sign-up link
    /markup: set the prices your downlines pay
    /api: H2H keys for your server
    Type /help for every command.
role-now-customer = Your account is now a <b>customer</b>'s: customer prices apply, and /downline, /markup and /api are no longer available. Questions? Contact an admin.
admin-test-usage = Usage: /test &lt;CODE.DESTINATION&gt;, e.g. /test TSEL10.081234567890. The order goes to the supplier with testing=true and moves no money.
admin-user-usage = Use: /user &lt;telegram_user_id&gt;
admin-user-not-found = User { $user } has never used the bot.
admin-user =
    👤 <b>User { $user }</b>
    Name: { $name } ({ $username })
    Role: { $tier } · Language: { $language }
    Balance: { $balance }
    Orders: { $orders }
    Since: { $since }
admin-user-blocked = 🚫 This user blocked the bot.
admin-markup-title = 📐 <b>Markup rules</b>
admin-markup-none = No rules yet (price = supplier price).
admin-markup-usage =
    Use:
    /markup set &lt;all|type|category|brand|product&gt; [value] &lt;customer|reseller&gt; &lt;percent&gt; [rupiah]
    /markup del &lt;id&gt;
    Example: /markup set brand TELKOMSEL reseller 1.5 100
admin-markup-set = ✅ Rule saved: { $rule }
admin-markup-deleted = 🗑 Rule deleted: { $rule }
admin-markup-refused = ⚠️ Refused: { $reason }
admin-stats-title = 📊 <b>Statistics</b>
admin-stats-failover = 🔀 Saved by a backup route: today { $today }, 7 days { $week }
admin-stats-supplier-line = • { $supplier }: { $rate } succeeded of { $ended } attempts, median { $median } to final
admin-stats-today =
    <b>Today</b>
    Orders: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Revenue: { $revenue } · Margin: { $margin }
admin-stats-week =
    <b>Last 7 days</b>
    Orders: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Revenue: { $revenue } · Margin: { $margin }
admin-stats-overcharge = 💸 Charged above the quote: { $count } orders, a loss of { $loss }
admin-amount-too-large = That amount is too large: at most { $max } per operation.
admin-pending-none = ✅ No stuck orders.
admin-pending-title = ⏳ <b>Open orders ({ $count })</b>
admin-status-attempts = 🔀 <b>Attempts</b> (admins only): supplier · code · ref_id · state · answer · made → answered → final
admin-status-supplier-note = 📝 Supplier's note (admins only): { $note }
admin-recheck-done = { $ref }: { $status ->
    [success] ✅ succeeded
    [failed] ❌ failed
    [pending] ⏳ still processing
    [submitted] ⏳ sent, awaiting an answer
    [created] ⏳ not sent yet
   *[unknown] ❓ not certain yet
}
admin-recheck-failed = The re-check failed, try again later.
admin-broadcast-usage = Use: /broadcast &lt;text&gt;
admin-broadcast-queued = 📣 Broadcast queued for { $count } users.

# ---------------------------------------------------------------- command list

cmd-start = Main menu
cmd-saldo = Your balance
cmd-deposit = Top up
cmd-riwayat = Order history
cmd-status = Order status
cmd-lang = Change language
cmd-help = Help
cmd-downline = Sign-up link and downlines
cmd-komisi = Commission from downlines
cmd-transfer = Send balance to a downline
cmd-struk = Receipts for your buyers
cmd-cancel = Cancel what is in progress
cmd-balance = Supplier balance
cmd-sync = Sync the catalogue
cmd-credit = Credit a wallet
cmd-debit = Debit a wallet
cmd-role = Change a user's role
cmd-markup = Markup rules
cmd-stats = Statistics
cmd-pending = Stuck orders
cmd-broadcast = Message every user
cmd-test = Test order (testing mode)
cmd-recon = Check the supplier balance against the books
cmd-supplier_topup = Record a top-up of the supplier account
cmd-supplier_topup_reverse = Reverse a supplier top-up booked in error
cmd-payment = Look up a QRIS top-up
cmd-export = A month's orders as CSV
cmd-laporan = A chart of revenue and orders
cmd-user = User details

# ---------------------------------------------------------------- reconciliation
supplier-unavailable = ⏳ This product is temporarily unavailable. Nothing was charged: please try again later.
recon-title = 🧮 <b>Supplier balance check</b> #{ $id } ({ $at })
recon-baseline = Balance { $balance }. The first check: the next one compares against it.
recon-moved = Balance { $balance } (was { $previous }): moved { $actual }.
recon-expected = kios expected { $expected }: top-ups { $topups }, { $successes } successful orders { $costs }, open orders { $open } ({ $held }, counted as charged).
recon-ok = ✅ Matches kios's records.
recon-drift = ⚠️ <b>Difference: { $drift }</b> that kios's records do not explain.
recon-explained = ✅ The difference was confirmed as a supplier top-up.
recon-rise = The balance rose by more than kios knows of. Was it a top-up?
recon-carried-in = Carried from the check before (orders in flight then): { $amount }.
recon-in-flight = In flight at this reading: the supplier's figure may be up to { $rise } higher or { $fall } lower than kios's count.
recon-ok-carried = ✅ Matches kios's records, within what was in flight: { $carried } is carried to the next check.
recon-rise-uncertain = Orders in flight make the exact amount uncertain. If it was a top-up, record it with /supplier_topup &lt;amount&gt;.
recon-orders = Orders of the window:
btn-recon-topup = ✅ It was a top-up of { $amount }
recon-topup-recorded = ✅ Recorded: a supplier top-up of { $amount } (#{ $id }).
recon-topup-explains = It explains the difference found at check #{ $check }.
recon-topup-usage = Use: /supplier_topup [supplier] &lt;amount&gt; [note], e.g. /supplier_topup 1000000 BCA transfer (no supplier name: the first supplier).
recon-topup-into = Into the <b>{ $supplier }</b> supplier account.
recon-ticket-usage = Use: /supplier_topup &lt;supplier&gt; ticket &lt;amount&gt; &lt;bank&gt; [account owner's name], e.g. /supplier_topup backup ticket 500000 BCA Budi.
recon-ticket-none = The <b>{ $supplier }</b> supplier gives no deposit tickets: transfer as you usually do, then record it with /supplier_topup.
recon-ticket = 🎫 Deposit ticket at <b>{ $supplier }</b>: transfer exactly <b>{ $amount }</b> to { $bank } { $account } with the note <code>{ $notes }</code>. Nothing is booked now: the top-up is booked once the supplier's balance has risen (its balance check).
recon-ticket-failed = The supplier gave no ticket: { $reason }
recon-unknown-supplier = There is no supplier named { $name }. Suppliers: { $names }.
recon-failed-at = The <b>{ $supplier }</b> supplier balance could not be read ({ $code }). Try again later.
recon-topup-already = Already booked: top-up #{ $id } of { $amount }, recorded by { $by } on { $at }.
recon-topup-by-cli = the command line
recon-topup-another-hint = Nothing was booked now. If you made another top-up of this amount, tap below.
btn-recon-another = ➕ Another top-up of { $amount }
recon-reverse-usage = Use: /supplier_topup_reverse &lt;number&gt; [note], e.g. /supplier_topup_reverse 12 typed twice.
recon-reverse-done = ↩️ Top-up #{ $id } ({ $amount }) reversed: a reversing entry was booked, and both stay in the ledger.
recon-reverse-unexplained = The rise found at check #{ $check } is unexplained again.
recon-reverse-not-found = There is no supplier top-up #{ $id }.
recon-reverse-already = Top-up #{ $id } was already reversed by { $by } on { $at }.
recon-topup-not-a-rise = This check found no unexplained rise.
recon-failed = The supplier balance could not be read ({ $code }). Try again later.
recon-low-title = 🪫 <b>Supplier balance low</b>
recon-low-body = About { $known } left at the supplier. Orders it can't cover are not sent (buyers see "temporarily unavailable"). Top up the supplier account, then record it with /supplier_topup.
recon-low-body-at = About { $known } left at the <b>{ $supplier }</b> supplier. Orders it can't cover go through another supplier where there is one, or are not sent (buyers see "temporarily unavailable"). Top up that supplier account, then record it with /supplier_topup { $supplier } &lt;amount&gt;.
product-closed = ⛔ This product is closed until { $until }. Please come back then.
product-closed-label = closed until { $until }
product-paused-title = ⏸ <b>Product paused</b>
product-paused-body = { $code } ({ $name }) is closed to buyers until { $until }: { $why }.
product-paused-inactive = the supplier says it is inactive
product-paused-failing = too many of its recent orders failed
route-paused-title = ⏸ <b>Product route paused</b>
route-paused-body = { $code } ({ $name }) is not bought from the <b>{ $supplier }</b> supplier until { $until }: { $why }. The product is still sold through its other suppliers.
recheck-title = 🔎 <b>Daily order check</b>: { $checked } settled orders asked again
recheck-disagree = The supplier tells otherwise about these (kios → supplier); they are flagged in /pending:
recheck-more = … and { $more } more.
recheck-unanswered = { $unanswered } could not be asked this time (the supplier did not answer).
admin-stats-yesterday =
    <b>Yesterday</b>
    Orders: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Revenue: { $revenue } · Margin: { $margin }
report-title = 📰 <b>Daily report</b> for { $day }
report-failures = <b>Failures by reason</b>
report-reason-supplier-failed = the supplier failed the order
report-reason-destination = destination number refused
report-reason-product = product unknown or inactive at the supplier
report-reason-supplier-balance = supplier balance too low
report-reason-bill-window = bill payment window closed
report-reason-no-record = the supplier has no record of the order
report-reason-credentials = the supplier refused kios's credentials
report-reason-clock = the supplier refused the server's clock
report-reason-rate-limited = the supplier limited the request rate
report-reason-validation = the supplier refused the request
report-reason-supplier-error = the supplier had an error
report-reason-not-sent = never reached the supplier (interrupted)
report-reason-admin-refund = refunded by an admin
report-reason-unknown = reason unknown
report-reason-other = other supplier answer (<code>{ $code }</code>)
report-supplier = 🏦 Supplier balance { $balance } (read { $at }): { $verdict }
report-supplier-none = 🏦 Supplier balance: not read yet (/recon).
report-recon-baseline = the first reading
report-recon-ok = matches kios's records
report-recon-explained = a difference confirmed as a top-up
report-recon-drift = ⚠️ a difference of { $drift } (/recon)

# ---------------------------------------------------------------- top-ups by QRIS

qr-title = 💳 <b>Pay { $amount } by QRIS</b>
qr-until = Valid until { $until }.
qr-how = Scan it with any bank or e-wallet app. Your balance arrives by itself.
qr-then-buy = Once paid, your order is placed by itself.
qr-paid-buy = It pays for the purchase above.
qr-paid = ✅ <b>Balance topped up { $amount }</b>
qr-expired = ⌛ The QR for { $amount } expired. Nothing was charged.
qr-cancelled = The QR for { $amount } was cancelled. Nothing was charged.
qr-mismatch = ⚠️ { $paid } was paid instead of { $amount }. Your balance is not changed yet; an admin will check it.
qr-failed = ❌ The payment of { $amount } was declined. Nothing was charged.
qr-unavailable = QRIS payment is not available right now. Try again in a moment.
qr-already-sent = The QR for this card was already sent above.
top-up-unavailable = ⚠️ <b>QRIS is not available right now.</b> Nothing was charged; try the top-up again in a moment.
qr-cancel-unavailable = It can't be cancelled right now. Try again in a moment.
btn-qr-sandbox-pay = 🧪 Pay (sandbox)
btn-deposit-manual = 🏦 Manual transfer
btn-top-up-and-buy = 💳 Top up { $amount } & buy
card-waiting-top-up = ⏳ <b>Waiting for a top-up of { $amount }</b>: pay the QR below and the order is placed by itself.
top-up-buy-cancelled = Your { $amount } top-up arrived. Nothing was bought because you cancelled the card.
top-up-buy-stale = This card is no longer valid. Your top-up arrived; a fresh card is below.
top-up-buy-fresh = The price or the card changed, so nothing was bought yet. Your top-up arrived; here is a fresh card:
payment-mismatch-title = ⚠️ <b>A QRIS payment does not match</b>
payment-mismatch-body = Order { $order }, user { $user }: asked { $asked }, paid { $paid }. Not credited; check the gateway's dashboard, then /credit if needed.
admin-payment-none = No payment gateway (PAYMENT_GATEWAY): top-ups are manual transfers only.
admin-payment-usage = Use: /payment &lt;number|gateway order id&gt;, e.g. /payment 12.
admin-payment-title = 💳 <b>QRIS top-up #{ $id }</b>
admin-payment-body = Order: <code>{ $order }</code> · user { $user } · { $amount } · status { $status } · created { $created }
admin-payment-paid = Paid: { $paid }
admin-payment-buy = Top up and buy: { $purchase }
admin-stats-payments = 💳 QRIS: today { $today } paid ({ $todaysum }), 7 days { $week } ({ $weeksum }); open { $open }
admin-stats-payments-mismatch = ⚠️ { $mismatch } QRIS payments did not match in 7 days (/payment)
admin-export-usage = Use: /export &lt;YYYY-MM&gt;, e.g. /export 2026-11 (the month in WIB).
admin-export-empty = No orders in { $month }.
admin-export-caption = 📄 Orders of { $month }: { $orders } rows (times in UTC, amounts in rupiah).

# ---------------------------------------------------------------- receipts

btn-receipt = 🧾 Receipt
receipt-title = Purchase receipt
receipt-product = Product
receipt-destination = Destination
receipt-customer-no = Customer no.
receipt-name = Name
receipt-tariff = Tariff/Power
receipt-kwh = kWh
receipt-sn = SN
receipt-period = Period
receipt-penalty = penalty
receipt-admin = Admin fee
receipt-paid = Total paid
receipt-ref = Ref
receipt-footer = Thank you. Keep this receipt as proof of payment.
receipt-not-yours = Receipts are for your own successful orders.
laporan-usage = Use: /laporan [7|30|90], a number of days (7 by default).
laporan-title = Report, { $days } days
laporan-revenue = Revenue (Rp)
laporan-margin = Margin (Rp)
laporan-orders = Orders
laporan-success-rate = Successful (%)
laporan-top = Top products
laporan-day = Day (WIB)
# the short weekday names, Sunday first, one space apart (the chart labels its days "Sen 30/11")
laporan-weekdays = Sun Mon Tue Wed Thu Fri Sat
laporan-caption = 📈 { $days } days: { $orders } orders, { $rate } successful, revenue { $revenue }, margin { $margin }.
btn-laporan-csv = 📄 CSV
receipt-settings-title = 🧾 <b>Receipts for your buyers</b>
receipt-settings-name = Shop name: { $name }
receipt-settings-default = (this shop's name)
receipt-settings-markup = Added to the price on receipts: { $markup }
receipt-settings-auto-on = Send receipts automatically: yes
receipt-settings-auto-off = Send receipts automatically: no
receipt-settings-usage = Change with: /struk name &lt;your shop&gt; · /struk price &lt;amount added, e.g. 2000&gt; · /struk auto on|off (a - clears the name or the amount).
receipt-settings-resellers = /struk is for resellers.
receipt-settings-bad-name = A shop name of 1–{ $max } characters, e.g. /struk name Budi's Shop.
receipt-settings-bad-name-characters = A shop name cannot hold control characters (such as a tab or a line break): type it on one line, e.g. /struk name Budi's Shop.
receipt-settings-bad-markup = The amount added is a number of rupiah, e.g. /struk price 2000.
cmd-harga = Price list
price-list-index =
    📋 <b>Price list</b>
    Choose a category, or type /harga &lt;brand or category&gt;, e.g. /harga telkomsel or /harga telkomsel data.
price-list-title = 📋 <b>{ $scope }</b> · { $count } on sale · { $page }/{ $pages }
price-list-reseller = Your reseller prices.
price-list-admin-fee = admin fee { $price }
price-list-not-found = Nothing is for sale under a brand or category “{ $text }”. Choose a category:
price-list-suggest = Which one do you mean?
btn-price-list-picture = 🖼 Picture to share
btn-price-list-index = 📋 All categories
price-list-picture-title = Price List { $scope }
price-list-picture-title-page = Price List { $scope } ({ $page }/{ $pages })
price-list-picture-as-of = As of { $when }
price-list-picture-more = … and { $more } more.
price-list-picture-footer = Prices may change without notice.
price-list-picture-caption = 📋 { $scope }: { $count } on sale, as of { $when }.
price-list-picture-page = 🖼 Picture { $page }/{ $pages }
price-list-picture-page-caption = 📋 { $scope } · picture { $page }/{ $pages }
price-list-picture-cut = The pictures hold the first { $shown }; narrow it with /harga &lt;brand&gt; &lt;category&gt;.
price-list-picture-markup = Prices in the picture include your { $markup } (/struk price).
price-list-picture-failed = ⚠️ The { $scope } price-list picture could not be sent. The list is still above, or narrow it with /prices &lt;brand&gt; &lt;category&gt; and try again.
cmd-resume = Reopen a paused product
cmd-routes = A product's supplier routes
cmd-pin = Your wallet's PIN
cmd-promote = Make a user a reseller
cmd-upline = Move a user in the reseller tree
cmd-api = H2H API keys (failed callbacks)
btn-product-resume = ▶️ Reopen now
admin-routes-usage = Usage: /routes &lt;CODE&gt;, e.g. /routes TSEL10: the product's suppliers, in the order they are tried.
admin-routes-title = 🔀 Routes of <b>{ $code }</b>, tried in order:
admin-routes-active = active
admin-routes-inactive = inactive at the supplier
admin-routes-disabled = switched off
admin-routes-paused = paused until { $until } (failing)
admin-routes-no_product = No product { $code }.
admin-routes-no_route = That supplier has no route for this product.
admin-routes-at_edge = That route is already at the end.
admin-routes-changed = Routes changed
admin-routes-order-manual = Order: manual (as admins move them). By cost: /routeorder cost
admin-routes-order-cost = Order: by cost (cheapest first, re-ordered at every sync). Manual: /routeorder manual
admin-routes-by_cost = Routes are ordered by cost: /routeorder manual first, to move them by hand
cmd-unlinked = Other suppliers' products not linked yet
cmd-link = Link another supplier's product to a product
admin-unlinked-none = Every product of the other suppliers is linked (or matched no new product).
admin-unlinked-title = 🔗 { $total } product(s) of other suppliers wait for a link:
admin-unlinked-candidates = matches { $codes }
admin-unlinked-nomatch = matches no product
admin-unlinked-more = … and { $n } more (all: kios routes --unlinked)
admin-link-usage = Usage: /link &lt;CODE&gt; &lt;supplier&gt; &lt;code at the supplier&gt;, e.g. /link TSEL10 backup BTSEL10. See /unlinked.
admin-link-not_unlinked = That supplier's product is not waiting for a link (see /unlinked).
admin-link-bill = A bill is paid at the first supplier: it takes no route.
admin-link-has_route = This product has a route at that supplier already (move or switch it off in /routes).
cmd-minmargin = A route's minimum margin
admin-minmargin-now = 📏 Minimum margin: <b>{ $amount }</b>. A route that leaves less than this over its cost is not tried. Change it: /minmargin &lt;rupiah&gt;, or /minmargin reset (back to MIN_MARGIN).
admin-minmargin-set = ✅ The minimum margin is now <b>{ $amount }</b>: a route that leaves less is not tried.
admin-minmargin-usage = Use: /minmargin (show), /minmargin 500 (whole rupiah, at most { $max }), or /minmargin reset.
cmd-routeorder = The order routes are tried in: manual or by cost
admin-routeorder-now-cost = 🔀 Routes are tried <b>by cost</b>: cheapest first, re-ordered at every sync. Change it: /routeorder cost or /routeorder manual. A route is tried only when it leaves the minimum margin (/minmargin).
admin-routeorder-now-manual = 🔀 Routes are tried in <b>manual</b> order, as admins move them in /routes. Change it: /routeorder cost or /routeorder manual. A route is tried only when it leaves the minimum margin (/minmargin).
admin-routeorder-set-cost = ✅ Routes are now tried <b>by cost</b>, cheapest first ({ $moved } moved); the next syncs keep them so.
admin-routeorder-set-manual = ✅ Routes are now tried in <b>manual</b> order: they stay where they are, to be moved in /routes.
admin-routeorder-usage = Use: /routeorder (show), /routeorder cost or /routeorder manual.
admin-resume-usage = Usage: /resume &lt;CODE&gt;, e.g. /resume TSEL10: reopens a paused product.
admin-resume-done = ▶️ { $code } is open to buyers again.
admin-resume-not-paused = { $code } is not paused.
admin-resume-toast = { $code } reopened
admin-resume-by = ▶️ reopened by { $admin }
admin-resume-already = (no longer paused)

# inline mode: @bot <words> in any chat
inline-price = Price: { $price }
inline-link = <a href="{ $link }">Buy here</a>
btn-inline-buy = 🛒 Buy
inline-none = Nothing matches · open the shop
inline-empty = Type a product · or open the shop

# copy buttons (copy_text): a result's SN or token, a transfer's reference and amount
btn-copy-sn = 📋 Copy SN
btn-copy-token = 📋 Copy token
btn-copy-reference = 📋 Copy code
btn-copy-amount = 📋 Copy amount

# H2H API (/api)
api-off = The H2H API is not enabled in this shop.
api-off-admin =
    The H2H API is not enabled in this shop. To turn it on, make an encryption key with <code>openssl rand -hex 32</code>, set it as <code>H2H_ENCRYPTION_KEY=…</code> in the environment or <code>.env</code>, and restart kios (docs/h2h.md).
api-resellers-only = The H2H API is for resellers. Ask the shop's admin.
api-none = You have no H2H API key yet.
    API address: { $url }
api-btn-create = 🔑 Create an API key
api-title = 🔌 <b>H2H API</b>
api-url = Address: { $url }
api-state = Status: { $state }
api-state-on = active
api-state-off = switched off by the admin
api-state-revoked = revoked (rotate the key to use it again)
api-callback = Callback: { $url }
api-chat-results = H2H results in chat: { $on ->
        [on] on
       *[off] off
    }
api-failures = ⚠️ Latest failed callbacks:
api-failures-all = ⚠️ Latest failed callbacks (all resellers):
api-btn-rotate = 🔄 Rotate key
api-btn-revoke = ⛔ Revoke
api-btn-chat-on = 💬 Send results to chat
api-btn-chat-off = 🔕 Don't send results to chat
api-secrets-title = 🔑 <b>Your API key</b> (this message deletes itself in 1 minute)
api-secrets-note = Store it on your server now. It will not be shown again; if lost, rotate the key.
api-revoked = Key revoked.
# the reseller network (docs/resellers.md)
resellers-only = This is for resellers. Ask the admin to become one.
joined-upline = 🤝 You joined as a downline of <b>{ $upline }</b>. The prices you see are theirs.
joined-notice = 🎉 <b>{ $who }</b> joined through your link and is now your downline.
join-too-deep = This link can't be used: the network is already { $depth } levels deep (the shop's limit).
join-offer =
    🤝 <b>{ $upline }</b> invites you to become their downline.
    If you join, the prices you see follow { $upline }'s (their markup included), and { $upline } can see your balance and your order history. After that only the shop's admin can move you.
    Join?
btn-join-yes = ✅ Join
btn-join-no = ✖ No
join-declined = You did not join. Your prices and your account stay as they were.
join-in-trade-reseller = You are a reseller, so you can't join another network by a link. If you do want to move, ask the shop's admin (/upline).
join-in-trade-downlines = You already have downlines, so you can't join another network by a link. If you do want to move, ask the shop's admin (/upline).
join-link-gone = This link is no longer valid.
join-already = You are already another reseller's downline.
downline-link =
    🤝 <b>Your downline sign-up link</b>
    { $link }
    A customer who opens it and says yes becomes your downline and buys at your price + your markup (/markup).
btn-referral-qr = 📷 Link QR
referral-qr-caption = Scan to join: { $link }
downline-empty = No downlines yet. Share the link above.
downline-title = 👥 <b>Downlines ({ $count })</b> · page { $page }/{ $pages }
downline-row = { $n }. { $who } · spent this month { $spent } · balance { $balance }
downline-detail =
    👤 <b>{ $who }</b> · ID <code>{ $id }</code>
    Joined: { $joined }
    Spent this month: { $spent }
    Balance: { $balance }
    Their downlines: { $downlines }
reseller-markup-title = 📈 <b>Markup for your downlines</b> (over your price; the shop's limit: { $maxflat } or { $maxpercent } % per level)
reseller-markup-none = No markup yet: your downlines buy at your price.
reseller-markup-row = #{ $id } { $scope }: { $markup }
reseller-markup-usage =
    Set: <code>/markup all 2%</code>, <code>/markup all 500</code>,
    <code>/markup category Pulsa 1% 200</code>, <code>/markup product TSEL10 300</code>
    Remove: <code>/markup delete &lt;number&gt;</code>
reseller-markup-set = ✅ Markup #{ $id } { $scope }: { $markup }
reseller-markup-deleted = 🗑 Markup #{ $id } removed.
reseller-markup-not-found = There is no markup #{ $id }.
reseller-markup-refused = ❌ { $reason }
scope-all = all products
scope-name = { $scope ->
    [all] all products
    [category] category
    [brand] brand
    [product] product
    [type] type
   *[other] { $scope }
}
pricing-refused-invalid-scope = unknown scope "{ $got }" (all, category, brand, product)
pricing-refused-invalid-tier = the role must be customer or reseller (got "{ $got }")
pricing-refused-invalid-percent = the percentage must be from { $min } % to { $max } % (got { $got } %)
pricing-refused-invalid-flat = the amount must be whole rupiah from { $min } to { $max } (got { $got })
pricing-refused-invalid-step = the rounding step must be whole rupiah from { $min } to { $max } (got { $got })
pricing-refused-invalid-scope-value = { $needs ->
    [yes] a rule for { $scope } needs its value
   *[no] a rule for { $scope } takes no value
}
pricing-refused-unknown-scope-value = no product in the catalogue has { $scope } "{ $got }" (sync the catalogue first?)
pricing-refused-rule-not-found = there is no markup rule #{ $id }
admin-upline-usage = Usage: /upline &lt;id&gt; &lt;upline id|-&gt; (move a user; - = no upline)
admin-promote-usage = Usage: /promote &lt;id&gt; [upline id] (make a reseller, under the upline if given)
admin-tree-done = ✅ User { $user }: { $upline }.
admin-promote-done = ✅ User { $user } is now a reseller ({ $upline }). They have been told.
admin-tree-refused = ❌ { $reason }
tree-self = a user can't be their own upline
tree-cycle = that upline is below this user (the network would loop)
tree-too-deep = the network would be more than { $depth } levels deep
tree-unknown-upline = kios has never seen user { $upline }: an upline must be someone who has started the bot
tree-no-upline = no upline
tree-upline = upline { $upline }
earnings-usage = Usage: /komisi [days], 1 to 90 (7 by default).
earnings-title = 💰 <b>Commission, last { $days } days</b>: { $total } from { $orders } orders
earnings-none = No commission yet. It reaches your balance when a downline's order succeeds.
earnings-by-day = <b>By day</b>
earnings-by-downline = <b>By downline</b>
earnings-row = { $label }: { $amount } ({ $orders } orders)
transfer-usage = Usage: /transfer &lt;id or @username&gt; &lt;amount&gt;, e.g. <code>/transfer @sari 50000</code>.
transfer-unknown-user = There is no user { $who }.
transfer-bad-amount = That amount is not valid.
transfer-self = You can't transfer to yourself.
transfer-not-downline = Transfers go only to your direct downlines (see /downline).
transfer-moved-away = ❌ ID <code>{ $id }</code> is no longer your direct downline.
transfer-above-max = ❌ At most { $max } per transfer.
transfer-daily-cap = ❌ The daily transfer cap is { $cap }; { $left } left today.
transfer-short = ❌ Not enough balance ({ $balance }).
transfer-not-found = This transfer is no longer valid.
transfer-expired = ⌛ This transfer expired. Send /transfer again.
transfer-card =
    💸 <b>Balance transfer</b>
    To: { $to } (ID <code>{ $id }</code>)
    Amount: { $amount }
    Balance: { $balance } → { $after }
btn-transfer-send = ✅ Send
transfer-done = ✅ { $amount } sent to ID <code>{ $id }</code>. Balance: { $balance }
transfer-received = 💸 You received { $amount } from { $from }. Balance: { $balance }
transfer-cancelled = Transfer cancelled.
transfer-not-sent = Nothing was sent.
pin-enter = Enter your PIN on the keypad.
pin-pad-typed = 🔒 PIN { $dots }
pin-wrong = Wrong PIN. { $left } tries left before it locks.
pin-locked = Locked after 5 wrong PINs, until { $until }.
pin-locked-notice = 🔒 5 wrong PINs. Pay and transfers are locked until { $until }. Not you? Tell the admin.
pin-left-unchanged = Cancelled. Your PIN is unchanged: Pay and transfers still ask for it.
pin-left-none = Cancelled. No PIN was made: send /pin to make one.
btn-pin-retry = 🔒 Try again
pin-new = 🔐 Make a new PIN (4–6 digits) on the keypad below, then ✅.
pin-old = 🔐 Enter your current PIN on the keypad below, then ✅.
pin-repeat = 🔐 Type the new PIN once more, then ✅.
pin-mismatch = The two PINs differ. Make the new PIN again.
pin-pad-expired = This keypad has expired. Press again for a new one.
pin-invalid = A PIN is 4 to 6 digits.
pin-set-done = ✅ PIN on. Pay and transfers will ask for it.
pin-status-on = 🔐 PIN on: Pay and transfers ask for it.
btn-pin-change = Change PIN
btn-pin-remove = Remove PIN
pin-removed = PIN removed.
downline-ask-pin = 🔐 Protect your balance: set a PIN with /pin.
api-usage = Use /api, or /api callback &lt;https://your-server-address&gt; (none: remove it).
api-no-key = Create an API key first with /api.
api-callback-refused = Callback URL refused: { $reason }.
# why a callback or report URL is refused (checkCallbackUrl's codes, api-keys/url-refusal.ts)
url-refused-not-url = not a URL
url-refused-credentials = it must not carry a user name or password
url-refused-too-long = longer than 500 characters
url-refused-not-https = it must be https
url-refused-local-name = it must not name this machine or the local network
url-refused-private-address = it must not be a private, loopback or link-local address
api-callback-confirm = Change the callback address to { $url }? Enter your PIN to save it.
repeat-warning = ⚠️ You bought this for this number today at { $time }. Buy again?
quick-repeat = ⚠️ Already bought today at { $time }. To buy it again, send <code>{ $again }</code>.
pay-bought-today = ⚠️ Not paid: this was already bought for this number today at { $time }, after this card was made. To buy it again, get a new card (it asks first).

# the center's text commands (docs/center.md#text-commands)
center-resellers-only = The center's text commands are for resellers. Your message was deleted because it carried a PIN.
center-pin-unreadable = The PIN in that command could not be read. Send the command again.
center-no-pin = Text commands use your wallet PIN. Set one first with /pin.
center-pin-format = A PIN is 4–6 digits, at the end of the command (for example <code>S.1234</code>).
center-pin-only-last = The PIN goes once, at the end: <code>TSEL10.0812…,XL5.0813….1234</code>
center-ref-repeated = R#{ $ref } is used twice in one message. Nothing was ordered.
center-too-many = At most { $max } orders in one message. Nothing was ordered.
center-unknown-keyword = Unknown command { $word }. Known: { $list }. To buy: <code>CODE.DEST.PIN</code>.
center-format = Wrong format, nothing was done. Use: { $usage }
center-usage-buy = <code>CODE.DEST.PIN</code>, <code>CODE.2.DEST.PIN</code> (the 2nd today), <code>CODE.DEST,CODE.DEST.PIN</code>; add <code>R#yourref</code> after any order
center-usage-s = <code>S.PIN</code>
center-usage-sal = <code>SAL.PIN</code>
center-usage-h = <code>H.CODE.PIN</code>
center-usage-cek = <code>CEK.DEST.PIN</code>
center-usage-sta = <code>STA.REF.PIN</code>
center-usage-rekap = <code>REKAP.PIN</code> or <code>REKAP.DD-MM-YYYY.PIN</code>
center-usage-tiket = <code>TIKET.AMOUNT.PIN</code>
center-usage-gp = <code>GP.OLDPIN.NEWPIN</code>
center-usage-trans = <code>TRANS.ID.AMOUNT.PIN</code>
center-price = H { $code }: { $name }. Price { $price }
center-check-none = No orders to { $dest } today.
center-recap = Recap { $day }: { $success } successful, { $failed } failed, { $pending } pending. Successful total { $spent }. Balance { $balance }
center-pin-changed = ✅ PIN changed. Your next text commands use the new PIN.
center-pin-changed-meanwhile = The PIN was changed elsewhere. Nothing was changed.
center-key-none = You have no center access yet (memberID, pin, password) for OtomaX/IRS/ST24 software.
center-key-btn-create = 🔑 Create center access
center-key-title = 🛰 <b>Center access (OtomaX)</b>
center-key-report = Report URL: { $url }
center-key-ips = Allowed IPs: { $ips }
center-key-usage = Change: <code>/api center report https://your-address</code> (none: remove), <code>/api center ips 1.2.3.4,5.6.7.8</code> (none: any).
center-key-secrets-title = 🔑 <b>Your center access</b> (this message is deleted in 1 minute)
center-key-has = You already have center access: rotate it.
center-key-revoked = Center access revoked.
center-key-report-confirm = Change the report URL to { $url }? Enter your PIN to save.
center-key-ips-confirm = Allow only the IPs { $ips }? Enter your PIN to save.
center-key-ips-bad = Write IP addresses separated by commas, for example <code>1.2.3.4,5.6.7.8</code>, or none.

## why a callback or report was not delivered (bot/api-keys/delivery-failure.ts)
delivery-http = the server answered HTTP { $status }{ $redirect ->
    [yes] {" "}(redirects are not followed)
   *[no] {""}
}
delivery-broke-off = the server's answer broke off
delivery-timeout = no complete answer within { $seconds } s
delivery-connect = could not connect ({ $code })
delivery-private-host = the server's address is in private or local space
delivery-no-url = no callback URL is set
delivery-url-refused = the callback URL breaks the rules (https, no private address): set it again with /api callback

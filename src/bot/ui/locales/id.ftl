## kios: teks bot dalam bahasa Indonesia (bahasa bawaan)
## angka rupiah sudah diformat oleh kode (Rp10.000); teks boleh berisi HTML Telegram.

# ---------------------------------------------------------------- umum

welcome =
    Halo { $name }! 👋
    Selamat datang di <b>kios</b>: pulsa, paket data, token PLN, e-wallet, voucher game, dan bayar tagihan.
    Pilih menu di bawah.
menu-title = Mau beli apa hari ini?
menu-pulsa = 📱 Pulsa & Data
menu-pln = ⚡ Token PLN
menu-ewallet = 👛 E-Wallet
menu-game = 🎮 Voucher Game
menu-bill = 🧾 Tagihan
menu-saldo = 💰 Saldo
menu-history = 📜 Riwayat
menu-help = ❓ Bantuan
menu-catalogue = 🛍 Katalog
help-customer-title = <b>Bantuan</b>
help-start = /start: menu utama
help-saldo = /saldo: cek saldo
help-deposit = /deposit &lt;jumlah&gt;: isi saldo, misalnya /deposit 100000
help-riwayat = /riwayat: transaksi terakhir
help-harga = /harga [brand|kategori]: daftar harga, juga sebagai gambar
help-status = /status &lt;ref&gt;: status satu transaksi
help-lang = /lang: ganti bahasa (English)
help-pin = /pin: lindungi saldo dengan PIN
help-help = /help: daftar perintah ini
help-cancel = /cancel: batalkan proses yang sedang berjalan
help-reseller-title =
    <b>Reseller</b>
    Pesan cepat: kirim <code>KODE.TUJUAN</code> atau <code>KODE TUJUAN</code>, misalnya <code>TSEL10.081234567890</code>.
    Perintah teks dengan PIN di akhir: <code>KODE.TUJUAN.PIN</code> langsung membeli tanpa kartu, <code>S.PIN</code> saldo, <code>CEK.TUJUAN.PIN</code> pesanan hari ini ke nomor itu (perlu /pin).
    Di /saldo terlihat juga belanja hari ini.
help-downline = /downline: link pendaftaran dan downline-mu
help-markup = /markup: harga untuk downline-mu (admin: aturan markup toko)
help-komisi = /komisi: komisi per hari dan per downline
help-transfer = /transfer &lt;id&gt; &lt;jumlah&gt;: kirim saldo ke downline
help-struk = /struk: nama toko dan harga di struk (dan gambar daftar harga) untuk pembelimu
help-api = /api: kunci API H2H, URL callback dan callback yang gagal
help-admin-title = <b>Admin</b>
help-balance = /balance: saldo tiap supplier
help-sync = /sync: sinkronkan katalog
help-credit = /credit &lt;id&gt; &lt;jumlah&gt; [catatan]: tambah saldo user
help-debit = /debit &lt;id&gt; &lt;jumlah&gt; [catatan]: kurangi saldo user
help-role = /role &lt;id&gt; customer|reseller: ubah peran user
help-promote = /promote &lt;id&gt;: jadikan user reseller
help-upline = /upline &lt;id&gt; &lt;id upline&gt;|none: pindahkan user di jaringan reseller
help-minmargin = /minmargin [rupiah|reset]: margin minimum sebuah rute
help-stats = /stats: pesanan, omzet, margin
help-laporan = /laporan [7|30|90]: grafik pendapatan, margin dan pesanan
help-pending = /pending: pesanan tertahan
help-broadcast = /broadcast &lt;teks&gt;: kirim ke semua user
help-user = /user &lt;id&gt;: info user
help-test = /test &lt;KODE.TUJUAN&gt;: pesanan uji (testing, tanpa memotong saldo)
help-recon = /recon [supplier]: cocokkan saldo tiap supplier dengan pembukuan
help-supplier_topup = /supplier_topup [supplier] &lt;jumlah&gt; [catatan]: catat top-up saldo supplier · /supplier_topup &lt;supplier&gt; ticket &lt;jumlah&gt; &lt;bank&gt;: tiket deposit (Digiflazz)
help-supplier_topup_reverse = /supplier_topup_reverse &lt;nomor&gt; [catatan]: batalkan top-up yang salah catat
help-payment = /payment &lt;nomor|order id&gt;: lihat satu isi saldo QRIS
help-export = /export &lt;YYYY-MM&gt;: pesanan sebulan sebagai CSV
help-resume = /resume &lt;KODE&gt;: buka lagi produk yang dijeda
help-routes = /routes &lt;KODE&gt;: rute pemasok sebuah produk, urutan dicoba
help-routeorder = /routeorder [cost|manual]: urutan rute dicoba, manual atau menurut modal
help-unlinked = /unlinked: produk pemasok lain yang belum tertaut
help-link = /link &lt;KODE&gt; &lt;pemasok&gt; &lt;kode di pemasok&gt;: tautkan produk pemasok lain
unknown-command = Perintah tidak dikenal. Ketik /start untuk membuka menu.
fallback = Maaf, saya belum paham. Pilih dari menu di bawah ini.
stale-button = Tombol ini sudah tidak berlaku.
error-generic = Maaf, terjadi gangguan. Silakan coba lagi sebentar lagi.
cancelled = Dibatalkan.
cancelled-toast = Dibatalkan
nothing-to-cancel = Tidak ada proses yang sedang berjalan.
language-choose = Pilih bahasa / Choose a language:
language-set = Bahasa diganti ke Bahasa Indonesia.
catalogue-loading = ⏳ Katalog produk sedang dimuat. Coba lagi sebentar lagi.
no-products = Maaf, belum ada produk yang tersedia di sini.

# ---------------------------------------------------------------- tombol

btn-cancel = ❌ Batal
btn-pay = ✅ Bayar
btn-pay-again = 🔁 Bayar lagi
btn-top-up = 💳 Isi saldo
btn-pulsa = Pulsa
btn-data = Paket Data
btn-back = ◀️ Kembali
btn-buy-again = 🔁 Beli lagi
btn-requote = 🔄 Cek harga terbaru
btn-reinquire = 🔄 Cek ulang tagihan
btn-confirm = ✅ Konfirmasi
btn-reject = ❌ Tolak
btn-recheck = 🔄 Cek ulang { $ref }

# ---------------------------------------------------------------- langkah pembelian

ask-phone = Masukkan nomor HP tujuan (contoh: 081234567890).
ask-phone-recent = Masukkan nomor HP tujuan, atau pilih nomor terakhir:
hint-phone = Nomor HP tidak dikenali. Gunakan format 08…, 628… atau +628….
ask-pulsa-or-data = Nomor { $phone } ({ $operator }). Mau beli pulsa atau paket data?
hint-buttons = Silakan pilih dengan tombol di bawah.
pick-pulsa = Pulsa { $operator } untuk { $phone }:
pick-data = Paket data { $operator } untuk { $phone }:
ask-meter = Masukkan nomor meter / ID pelanggan PLN (11–12 digit).
hint-meter = Nomor meter harus 11 atau 12 digit angka.
hint-meter-phone = Itu nomor HP, bukan nomor meter. Nomor meter (11 digit) atau ID pelanggan (12 digit) ada di meteran atau struk PLN.
pick-pln = Pilih nominal token untuk meter { $meter }:
pick-ewallet = Pilih e-wallet:
pick-ewallet-amount = Pilih nominal { $brand }:
ask-ewallet-number = Masukkan nomor HP akun { $brand } (contoh: 081234567890).
pick-game = Pilih game:
pick-game-item = Pilih item { $game }:
ask-game-id = Masukkan ID akun { $game }.
hint-game-id = ID akun tidak valid: gunakan angka atau huruf, 4–40 karakter.
ask-game-zone = Masukkan Zone ID / Server ID { $game } (angka di dalam kurung).
hint-game-zone = Zone ID harus berupa angka.
pick-bill-kind = Pilih jenis tagihan:
pick-bill-product = Pilih produk { $kind }:
ask-customer-no = Masukkan nomor pelanggan { $kind }.
category-emoney = E-Wallet
category-pln = Token PLN
category-games = Voucher Game
category-voucher = Voucher
category-sms-call = Paket SMS & Telepon
category-validity = Masa Aktif
category-streaming = Streaming
bill-kind-pln-postpaid = PLN Pascabayar
bill-kind-bpjs-kesehatan = BPJS Kesehatan
bill-kind-bpjs-ketenagakerjaan = BPJS Ketenagakerjaan
bill-kind-pdam = PDAM (air)
bill-kind-telkom = Telkom
bill-kind-pbb = PBB
bill-kind-multifinance = Multifinance (cicilan)
bill-kind-hp-postpaid = HP Pascabayar
bill-kind-internet-postpaid = Internet Pascabayar
bill-kind-gas = Gas Negara (PGN)
ask-bill-phone = Masukkan nomor HP { $kind }.
hint-customer-no = Nomor pelanggan harus 6–20 digit angka.
link-product = 🛒 <b>{ $product }</b> · { $price }
hint-link-destination = Tujuan itu tidak cocok untuk { $product }. Periksa lagi.
bill-checking = 🔎 Mengecek tagihan…
bill-none = Tidak ada tagihan untuk nomor ini.

# ---------------------------------------------------------------- kartu konfirmasi

# how dates and months are written (Intl locale)
date-locale = id-ID
card-title = 🧾 <b>Konfirmasi pembelian</b>
card-bill-title = 🧾 <b>Tagihan { $product }</b>
card-product = Produk: { $product }
card-destination = Tujuan: <code>{ $destination }</code>
card-price = Harga: <b>{ $price }</b>
card-name = Nama: <b>{ $name }</b>
card-customer-no = No. pelanggan: <code>{ $number }</code>
card-tariff = Tarif/Daya: { $tarif } / { $daya }
card-tariff-only = Tarif: { $tarif }
card-members = Jumlah peserta: { $count }
card-address = Alamat: { $address }
card-item = Item: { $item }
card-plate = No. polisi: { $plate }
card-tenor = Tenor: { $tenor }
card-due = Jatuh tempo: { $date }
card-periods = Lembar tagihan: { $count }
card-period = • Periode { $period }: { $amount } (denda { $penalty })
card-bill-amount = Tagihan: { $amount }
card-admin = Biaya admin: { $amount }
card-total = Total bayar: <b>{ $price }</b>
card-balance = Saldo: { $before } → { $after }
card-balance-now = Saldo: { $balance }
card-testing = 🧪 Mode uji: tidak ada saldo yang dipotong.
card-deadline = ⏱ Bayar sebelum <b>{ $time }</b> (berlaku 5 menit).
card-short = ⚠️ Saldo kurang { $missing }. Isi saldo dulu dengan /deposit.
card-cancelled = ❌ Pembelian dibatalkan.

# ---------------------------------------------------------------- penawaran dan pembayaran

quote-unavailable = Maaf, produk ini sedang tidak tersedia.
quote-invalid-destination = Nomor tujuan tidak sesuai untuk produk ini.
quote-supplier-error = Maaf, layanan sedang gangguan. Silakan coba lagi nanti.
quote-expired = ⌛ Harga ini sudah kedaluwarsa. Cek harga terbaru dengan satu ketukan.
quote-not-found = Penawaran ini sudah tidak tersedia.
bill-expired = ⌛ Waktu pembayaran tagihan (5 menit) sudah habis. Cek ulang tagihan untuk membayar.
pay-insufficient =
    ⚠️ <b>Saldo tidak cukup.</b>
    Harga: { $price }
    Saldo: { $balance }
    Kurang: <b>{ $missing }</b>
    Isi saldo dengan /deposit &lt;jumlah&gt; atau tombol di bawah, lalu tekan Bayar lagi.
pay-error = ⚠️ Terjadi gangguan saat memproses. Jangan bayar ulang dulu: cek /riwayat beberapa saat lagi.

# ---------------------------------------------------------------- pesanan

order-processing = ⏳ <b>Diproses</b>
order-success = ✅ <b>Berhasil</b>
order-failed = ❌ <b>Gagal</b>
order-product = Produk: { $product }
order-destination = Tujuan: <code>{ $destination }</code>
order-bill-name = Nama: { $name }
order-bill-periods = Periode: { $periods }
order-price = Harga: { $price }
order-ref = Ref: <code>{ $ref }</code>
order-wait = Hasilnya akan muncul di pesan ini.
order-sn = SN: <code>{ $sn }</code>
order-sn-missing = SN: -
order-token = Token: <code>{ $token }</code>
order-token-name = Nama: { $name }
order-token-tariff = Tarif/Daya: { $tarif } / { $daya }
order-token-kwh = kWh: { $kwh }
order-reason = Alasan: { $reason }
order-reason-unknown = tidak diketahui
order-reason-destination = nomor tujuan tidak valid untuk produk ini
order-reason-product = produk sedang tidak tersedia
order-reason-bill = sesi tagihan sudah habis; cek ulang tagihannya
order-reason-service = layanan supplier sedang terganggu; coba lagi nanti
order-reason-not-processed = pesanan tidak diproses supplier
order-reason-supplier = supplier tidak dapat memproses pesanan ini
bill-expired-nothing-charged = ⌛ Waktu pembayaran tagihan sudah habis sebelum pembayaran diterima supplier. Tidak ada saldo yang dipotong. Cek ulang tagihan untuk membayar.
bill-already-paying = ⏳ Tagihan ini sedang dibayar (sejak { $time }). Tunggu hasilnya sebelum membayar lagi.
bill-already-paid = ✅ Tagihan ini sudah dibayar pada { $time }.
quote-cancelled = ❌ Pembelian ini sudah dibatalkan; tidak ada yang dibeli.
cancel-too-late = Pembayaran sudah diproses dan tidak bisa dibatalkan.
order-refunded = Saldo dikembalikan { $amount }.
order-testing = 🧪 Mode uji: tidak ada saldo yang berpindah.
order-date = Waktu: { $date }
push-success = ✅ Pesanan berhasil: { $product } ke { $destination }.
push-failed = ❌ Pesanan gagal: { $product } ke { $destination }. Saldo dikembalikan { $amount }.
status-success = berhasil
status-failed = gagal
status-processing = diproses
history-title = 📜 Riwayat transaksi (hal. { $page }/{ $pages })
history-empty = Belum ada transaksi.
status-usage = Gunakan: /status &lt;ref&gt; (lihat ref di /riwayat).
status-not-found = Transaksi { $ref } tidak ditemukan.
quick-unknown-code = Kode produk { $code } tidak dikenal atau sedang tidak tersedia.
flagged-title = ⚠️ <b>Pesanan tertahan</b>
conflict-title = 🚨 <b>Status supplier berbeda</b>
decide-title = ❓ <b>Supplier tidak punya catatan pesanan ini</b>: supplier masih bisa memprosesnya. Kembalikan saldo pembeli, atau tunggu?
btn-decide-refund = ↩️ Kembalikan saldo
btn-decide-wait = ⏳ Tunggu
decided-refund = ↩️ Saldo dikembalikan atas keputusan admin.
decided-wait = ⏳ Pesanan tetap ditunggu dan dicek berkala.
decide-settled = Pesanan ini sudah selesai.
decide-supplier_knows = Supplier kini mengenal pesanan ini: tidak dikembalikan.
decide-not_found = Pesanan tidak ditemukan.
overcharge-title = 💸 <b>Supplier menagih lebih dari penawaran</b>
overcharge-body = Ditawarkan { $quoted }, ditagih { $charged }: rugi { $loss }.
conflict-body = kios mencatat pesanan ini { $kios }, tetapi supplier kini menyatakan { $supplier }. Saldo tidak diubah otomatis: periksa dengan supplier, lalu koreksi dengan /credit atau /debit bila perlu.

# ---------------------------------------------------------------- saldo dan deposit

balance = 💰 Saldo kamu: <b>{ $balance }</b>
balance-today = Belanja hari ini: { $spent }
balance-today-h2h = …lewat H2H (API): { $spent }
balance-top-up-hint = Isi saldo: /deposit &lt;jumlah&gt;, misalnya /deposit 100000.
ask-deposit-amount = Mau isi saldo berapa? Pilih atau ketik jumlahnya (contoh: 150000).
hint-amount = Jumlah tidak valid. Ketik angka saja, misalnya 150000.
deposit-usage = Gunakan: /deposit &lt;jumlah&gt;, misalnya /deposit 100000.
deposit-created =
    💳 <b>Permintaan isi saldo { $reference }</b>
    Jumlah: { $amount }
    Transfer tepat: <b>{ $pay }</b> (termasuk kode unik)
    Berlaku sampai: { $until }
deposit-too-small = Minimal isi saldo { $min }.
deposit-too-large = Maksimal isi saldo { $max }.
deposit-busy = Sedang banyak permintaan dengan jumlah ini. Coba jumlah lain.
deposit-confirmed = ✅ Isi saldo { $pay } ({ $reference }) berhasil. Saldo sekarang { $balance }.
deposit-rejected = ❌ Isi saldo { $reference } ditolak. Hubungi admin bila kamu sudah transfer.
deposit-expired = ⌛ Permintaan isi saldo { $reference } sudah kedaluwarsa.
deposit-pending = ⏳ Permintaan isi saldo { $reference } masih menunggu konfirmasi.
deposit-admin-title = 💰 <b>Permintaan isi saldo #{ $id }</b>
deposit-admin-user = Dari: { $user }
deposit-admin-amount = Jumlah: { $amount } · transfer { $pay }
deposit-admin-reference = Ref: <code>{ $reference }</code>
deposit-status-requested = Status: menunggu
deposit-status-confirmed = Status: ✅ dikonfirmasi
deposit-status-rejected = Status: ❌ ditolak
deposit-status-expired = Status: ⌛ kedaluwarsa
deposit-admin-confirmed = Dikonfirmasi, saldo user ditambah.
deposit-admin-rejected = Ditolak.
deposit-admin-already = Permintaan ini sudah diputuskan.
deposit-admin-expired = Permintaan ini sudah kedaluwarsa.
wallet-credited = 💰 Saldo kamu ditambah { $amount } oleh admin (catatan: { $note }). Saldo sekarang { $balance }.
wallet-debited = 💰 Saldo kamu dikurangi { $amount } oleh admin (catatan: { $note }). Saldo sekarang { $balance }.

# ---------------------------------------------------------------- admin

admin-balance = 🏦 Saldo supplier: <b>{ $balance }</b> (jawaban supplier barusan, { $at })
admin-supplier-error = ⚠️ Supplier tidak bisa dihubungi ({ $code }).
admin-supplier-notice = ⚠️ Pemberitahuan supplier: { $notice }
admin-balance-at = 🏦 Saldo <b>{ $supplier }</b>: <b>{ $balance }</b> (jawaban supplier barusan, { $at })
admin-supplier-error-at = ⚠️ <b>{ $supplier }</b> tidak bisa dihubungi ({ $code }).
admin-balance-last = Cek terakhir #{ $id } ({ $at }): { $balance }, { $verdict }.
admin-balance-last-answer = Bacaan terakhir #{ $id } ({ $at }, dari jawaban supplier untuk order { $ref }): { $balance }, { $verdict }.
admin-balance-never = Belum pernah dicocokkan dengan catatan kios (/recon).
admin-sync-started = 🔄 Sinkronisasi katalog…
admin-sync-done =
    ✅ <b>Katalog tersinkron</b> ({ $seconds } dtk)
    Total: { $total }
    Baru: { $added } · Berubah: { $changed }
    Nonaktif: { $deactivated } · Aktif lagi: { $reactivated }
    Tidak terdaftar lagi: { $unlisted } · Perubahan harga: { $prices }
admin-sync-suspicious = ⚠️ Daftar kosong dari supplier (tidak ada yang dihapus): { $lists }
admin-sync-failed = ⚠️ Sinkronisasi gagal ({ $code }). Katalog tidak diubah.
admin-adjust-repeated = Perintah ini sudah dijalankan; saldo tidak diubah lagi.
admin-credit-usage = Gunakan: /credit &lt;telegram_user_id&gt; &lt;jumlah&gt; [catatan]
admin-debit-usage = Gunakan: /debit &lt;telegram_user_id&gt; &lt;jumlah&gt; [catatan]
admin-credit-done = ✅ Saldo user { $user } ditambah { $amount }. Saldo: { $balance }
admin-debit-done = ✅ Saldo user { $user } dikurangi { $amount }. Saldo: { $balance }
admin-debit-insufficient = ⚠️ Saldo user tidak cukup ({ $balance }).
admin-role-usage = Gunakan: /role &lt;telegram_user_id&gt; customer|reseller
admin-role-done = ✅ User { $user } sekarang { $tier }.
# a price tier in words (/role's answer, /user): the word the user is told, not the stored value
tier-customer = pelanggan
tier-reseller = reseller
admin-role-demoted = Markup-nya berhenti berlaku sekarang: { $count } downline langsungnya membayar harga tingkat di atasnya. Komisi dan akses H2H-nya juga berhenti. Downline-nya tetap di bawahnya sampai dipindah (/upline).
role-now-reseller =
    🎉 Kamu sekarang <b>reseller</b>: harga reseller berlaku untuk pembelianmu.
    /downline: ajak downline dengan link pendaftaranmu
    /markup: atur harga untuk downline-mu
    /api: kunci H2H untuk servermu
    Ketik /help untuk semua perintah.
role-now-customer = Akunmu sekarang <b>pelanggan</b>: harga pelanggan berlaku, dan /downline, /markup serta /api tidak tersedia lagi. Ada pertanyaan? Hubungi admin.
admin-user-usage = Gunakan: /user &lt;telegram_user_id&gt;
admin-test-usage = Gunakan: /test &lt;KODE.TUJUAN&gt;, misalnya /test TSEL10.081234567890. Pesanan dikirim ke supplier dengan testing=true dan tidak memotong saldo.
admin-user-not-found = User { $user } belum pernah memakai bot.
admin-user =
    👤 <b>User { $user }</b>
    Nama: { $name } ({ $username })
    Peran: { $tier } · Bahasa: { $language }
    Saldo: { $balance }
    Pesanan: { $orders }
    Sejak: { $since }
admin-user-blocked = 🚫 User ini memblokir bot.
admin-markup-title = 📐 <b>Aturan markup</b>
admin-markup-none = Belum ada aturan (harga = harga supplier).
admin-markup-usage =
    Gunakan:
    /markup set &lt;all|type|category|brand|product&gt; [nilai] &lt;customer|reseller&gt; &lt;persen&gt; [rupiah]
    /markup del &lt;id&gt;
    Contoh: /markup set brand TELKOMSEL reseller 1.5 100
admin-markup-set = ✅ Aturan disimpan: { $rule }
admin-markup-deleted = 🗑 Aturan dihapus: { $rule }
admin-markup-refused = ⚠️ Ditolak: { $reason }
admin-stats-title = 📊 <b>Statistik</b>
admin-stats-failover = 🔀 Diselamatkan rute cadangan: hari ini { $today }, 7 hari { $week }
admin-stats-supplier-line = • { $supplier }: berhasil { $rate } dari { $ended } percobaan, median { $median } sampai final
admin-stats-today =
    <b>Hari ini</b>
    Pesanan: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Omzet: { $revenue } · Margin: { $margin }
admin-stats-week =
    <b>7 hari terakhir</b>
    Pesanan: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Omzet: { $revenue } · Margin: { $margin }
admin-stats-overcharge = 💸 Ditagih di atas penawaran: { $count } pesanan, rugi { $loss }
admin-amount-too-large = Jumlah terlalu besar: paling banyak { $max } per operasi.
admin-pending-none = ✅ Tidak ada pesanan yang tertahan.
admin-pending-title = ⏳ <b>Pesanan terbuka ({ $count })</b>
admin-status-attempts = 🔀 <b>Percobaan</b> (khusus admin): pemasok · kode · ref_id · status · jawaban · dibuat → dijawab → final
admin-status-supplier-note = 📝 Catatan supplier (khusus admin): { $note }
admin-recheck-done = { $ref }: { $status ->
    [success] ✅ berhasil
    [failed] ❌ gagal
    [pending] ⏳ masih diproses
    [submitted] ⏳ terkirim, menunggu jawaban
    [created] ⏳ belum terkirim
   *[unknown] ❓ belum pasti
}
admin-recheck-failed = Cek ulang gagal, coba lagi nanti.
admin-broadcast-usage = Gunakan: /broadcast &lt;teks&gt;
admin-broadcast-queued = 📣 Broadcast dijadwalkan untuk { $count } user.

# ---------------------------------------------------------------- daftar perintah

cmd-start = Menu utama
cmd-saldo = Cek saldo
cmd-deposit = Isi saldo
cmd-riwayat = Riwayat transaksi
cmd-status = Status transaksi
cmd-lang = Ganti bahasa
cmd-help = Bantuan
cmd-downline = Link pendaftaran dan downline
cmd-komisi = Komisi dari downline
cmd-transfer = Kirim saldo ke downline
cmd-struk = Struk untuk pembelimu
cmd-cancel = Batalkan proses
cmd-balance = Saldo supplier
cmd-sync = Sinkronkan katalog
cmd-credit = Tambah saldo user
cmd-debit = Kurangi saldo user
cmd-role = Ubah peran user
cmd-markup = Aturan markup
cmd-stats = Statistik
cmd-pending = Pesanan tertahan
cmd-broadcast = Kirim ke semua user
cmd-user = Info user
cmd-test = Pesanan uji (mode testing)
cmd-recon = Cocokkan saldo supplier dengan pembukuan
cmd-supplier_topup = Catat top-up saldo supplier
cmd-supplier_topup_reverse = Batalkan top-up supplier yang salah catat
cmd-payment = Lihat satu isi saldo QRIS
cmd-export = Pesanan sebulan sebagai CSV
cmd-laporan = Grafik pendapatan dan pesanan

# ---------------------------------------------------------------- reconciliation
supplier-unavailable = ⏳ Produk ini sementara tidak tersedia. Saldo Anda tidak terpotong: silakan coba lagi nanti.
recon-title = 🧮 <b>Cek saldo supplier</b> #{ $id } ({ $at })
recon-baseline = Saldo { $balance }. Cek pertama: cek berikutnya dibandingkan dengan ini.
recon-moved = Saldo { $balance } (sebelumnya { $previous }): berubah { $actual }.
recon-expected = Perkiraan kios { $expected }: top-up { $topups }, { $successes } pesanan sukses { $costs }, pesanan terbuka { $open } ({ $held }, dihitung terpotong).
recon-ok = ✅ Sesuai catatan kios.
recon-drift = ⚠️ <b>Selisih: { $drift }</b> yang tidak dijelaskan catatan kios.
recon-explained = ✅ Selisihnya dikonfirmasi sebagai top-up supplier.
recon-rise = Saldo naik lebih dari yang diketahui kios. Apakah ini top-up?
recon-carried-in = Dibawa dari cek sebelumnya (pesanan yang sedang berjalan saat itu): { $amount }.
recon-in-flight = Sedang berjalan saat pembacaan ini: angka supplier bisa sampai { $rise } lebih tinggi atau { $fall } lebih rendah dari hitungan kios.
recon-ok-carried = ✅ Sesuai catatan kios, dalam batas pesanan yang sedang berjalan: { $carried } dibawa ke cek berikutnya.
recon-rise-uncertain = Pesanan yang sedang berjalan membuat jumlah pastinya belum pasti. Jika ini top-up, catat dengan /supplier_topup &lt;jumlah&gt;.
recon-orders = Pesanan dalam periode ini:
btn-recon-topup = ✅ Ya, top-up { $amount }
recon-topup-recorded = ✅ Tercatat: top-up supplier { $amount } (#{ $id }).
recon-topup-explains = Ini menjelaskan selisih pada cek #{ $check }.
recon-topup-usage = Gunakan: /supplier_topup [supplier] &lt;jumlah&gt; [catatan], mis. /supplier_topup 1000000 transfer BCA (tanpa nama supplier: supplier pertama).
recon-topup-into = Ke akun supplier <b>{ $supplier }</b>.
recon-ticket-usage = Gunakan: /supplier_topup &lt;supplier&gt; ticket &lt;jumlah&gt; &lt;bank&gt; [nama pemilik rekening], mis. /supplier_topup backup ticket 500000 BCA Budi.
recon-ticket-none = Supplier <b>{ $supplier }</b> tidak memberi tiket deposit: transfer seperti biasa, lalu catat dengan /supplier_topup.
recon-ticket = 🎫 Tiket deposit di <b>{ $supplier }</b>: transfer tepat <b>{ $amount }</b> ke { $bank } { $account } dengan berita <code>{ $notes }</code>. Belum ada yang dicatat: top-up dicatat setelah saldo supplier naik (cek saldonya).
recon-ticket-failed = Supplier tidak memberi tiket: { $reason }
recon-unknown-supplier = Tidak ada supplier bernama { $name }. Supplier: { $names }.
recon-failed-at = Saldo supplier <b>{ $supplier }</b> tidak dapat dibaca ({ $code }). Coba lagi nanti.
recon-topup-already = Sudah dicatat: top-up #{ $id } sebesar { $amount }, oleh { $by } pada { $at }.
recon-topup-by-cli = baris perintah
recon-topup-another-hint = Tidak ada yang dicatat sekarang. Jika ini top-up lain dengan jumlah yang sama, ketuk di bawah.
btn-recon-another = ➕ Top-up lain { $amount }
recon-reverse-usage = Gunakan: /supplier_topup_reverse &lt;nomor&gt; [catatan], mis. /supplier_topup_reverse 12 tercatat dua kali.
recon-reverse-done = ↩️ Top-up #{ $id } ({ $amount }) dibatalkan: entri pembalik dicatat, dan keduanya tetap ada di buku besar.
recon-reverse-unexplained = Kenaikan pada cek #{ $check } kembali belum dijelaskan.
recon-reverse-not-found = Tidak ada top-up supplier #{ $id }.
recon-reverse-already = Top-up #{ $id } sudah dibatalkan oleh { $by } pada { $at }.
recon-topup-not-a-rise = Cek ini tidak menemukan kenaikan yang belum dijelaskan.
recon-failed = Saldo supplier tidak dapat dibaca ({ $code }). Coba lagi nanti.
recon-low-title = 🪫 <b>Saldo supplier menipis</b>
recon-low-body = Sisa sekitar { $known } di supplier. Pesanan yang tidak tercukupi tidak dikirim (pembeli melihat "sementara tidak tersedia"). Isi saldo supplier, lalu catat dengan /supplier_topup.
recon-low-body-at = Sisa sekitar { $known } di supplier <b>{ $supplier }</b>. Pesanan yang tidak tercukupi dikirim lewat supplier lain bila ada, atau tidak dikirim (pembeli melihat "sementara tidak tersedia"). Isi saldo supplier, lalu catat dengan /supplier_topup { $supplier } &lt;jumlah&gt;.
product-closed = ⛔ Produk ini tutup sampai { $until }. Silakan kembali nanti.
product-closed-label = tutup s/d { $until }
product-paused-title = ⏸ <b>Produk dijeda</b>
product-paused-body = { $code } ({ $name }) ditutup untuk pembeli sampai { $until }: { $why }.
product-paused-inactive = supplier menyatakannya tidak aktif
product-paused-failing = terlalu banyak pesanan terakhirnya gagal
route-paused-title = ⏸ <b>Rute produk dijeda</b>
route-paused-body = { $code } ({ $name }) tidak dibeli dari supplier <b>{ $supplier }</b> sampai { $until }: { $why }. Produk tetap dijual lewat supplier lain.
recheck-title = 🔎 <b>Cek pesanan harian</b>: { $checked } pesanan selesai ditanyakan ulang
recheck-disagree = Supplier menyatakan lain untuk pesanan ini (kios → supplier); sudah ditandai di /pending:
recheck-more = … dan { $more } lainnya.
recheck-unanswered = { $unanswered } tidak dapat ditanyakan kali ini (supplier tidak menjawab).
admin-stats-yesterday =
    <b>Kemarin</b>
    Pesanan: { $orders } (✅ { $success } · ❌ { $failed } · ⏳ { $open })
    Omzet: { $revenue } · Margin: { $margin }
report-title = 📰 <b>Laporan harian</b> { $day }
report-failures = <b>Kegagalan menurut penyebab</b>
report-reason-supplier-failed = digagalkan supplier
report-reason-destination = nomor tujuan ditolak
report-reason-product = produk tidak dikenal atau nonaktif di supplier
report-reason-supplier-balance = saldo supplier kurang
report-reason-bill-window = batas waktu bayar tagihan lewat
report-reason-no-record = supplier tidak punya catatan pesanan
report-reason-credentials = supplier menolak kredensial kios
report-reason-clock = supplier menolak jam server
report-reason-rate-limited = supplier membatasi laju permintaan
report-reason-validation = supplier menolak permintaan
report-reason-supplier-error = supplier sedang error
report-reason-not-sent = tidak sampai ke supplier (terputus)
report-reason-admin-refund = dikembalikan oleh admin
report-reason-unknown = penyebab tidak diketahui
report-reason-other = jawaban supplier lain (<code>{ $code }</code>)
report-supplier = 🏦 Saldo supplier { $balance } (dibaca { $at }): { $verdict }
report-supplier-none = 🏦 Saldo supplier: belum dibaca (/recon).
report-recon-baseline = pembacaan pertama
report-recon-ok = sesuai catatan kios
report-recon-explained = selisih dikonfirmasi sebagai top-up
report-recon-drift = ⚠️ selisih { $drift } (/recon)

# ---------------------------------------------------------------- isi saldo lewat QRIS

qr-title = 💳 <b>Bayar { $amount } dengan QRIS</b>
qr-until = Berlaku sampai { $until }.
qr-how = Pindai dengan aplikasi bank atau e-wallet apa pun. Saldo masuk otomatis.
qr-then-buy = Setelah dibayar, pesananmu dibuat otomatis.
qr-paid-buy = Dipakai untuk pembelian di atas.
qr-paid = ✅ <b>Saldo masuk { $amount }</b>
qr-expired = ⌛ QR { $amount } sudah kedaluwarsa. Tidak ada yang ditagih.
qr-cancelled = QR { $amount } dibatalkan. Tidak ada yang ditagih.
qr-mismatch = ⚠️ Dibayar { $paid }, tidak sama dengan { $amount }. Saldo belum ditambah; admin akan memeriksanya.
qr-failed = ❌ Pembayaran { $amount } ditolak. Tidak ada yang ditagih.
qr-unavailable = Pembayaran QRIS sedang tidak bisa dipakai. Coba lagi sebentar lagi.
qr-already-sent = QR untuk kartu ini sudah dikirim di atas.
top-up-unavailable = ⚠️ <b>QRIS tidak tersedia sekarang.</b> Tidak ada yang ditagih; coba isi lagi sebentar lagi.
qr-cancel-unavailable = Belum bisa membatalkan. Coba lagi sebentar lagi.
btn-qr-sandbox-pay = 🧪 Bayar (sandbox)
btn-deposit-manual = 🏦 Transfer manual
btn-top-up-and-buy = 💳 Isi { $amount } & beli
card-waiting-top-up = ⏳ <b>Menunggu isi saldo { $amount }</b>: bayar QR di bawah, pesanan dibuat otomatis.
top-up-buy-cancelled = Saldo { $amount } sudah masuk. Pembelian tidak dibuat karena kartunya kamu batalkan.
top-up-buy-stale = Kartu ini sudah tidak berlaku. Saldo sudah masuk; kartu baru ada di bawah.
top-up-buy-fresh = Harga atau kartunya berubah, jadi belum dibeli. Saldo sudah masuk; ini kartu baru:
payment-mismatch-title = ⚠️ <b>Pembayaran QRIS tidak cocok</b>
payment-mismatch-body = Order { $order }, user { $user }: diminta { $asked }, dibayar { $paid }. Tidak dikreditkan; periksa di dashboard gateway, lalu /credit bila perlu.
admin-payment-none = Tidak ada payment gateway (PAYMENT_GATEWAY): isi saldo hanya lewat transfer manual.
admin-payment-usage = Gunakan: /payment &lt;nomor|order id gateway&gt;, misalnya /payment 12.
admin-payment-title = 💳 <b>Isi saldo QRIS #{ $id }</b>
admin-payment-body = Order: <code>{ $order }</code> · user { $user } · { $amount } · status { $status } · dibuat { $created }
admin-payment-paid = Dibayar: { $paid }
admin-payment-buy = Isi & beli: { $purchase }
admin-stats-payments = 💳 QRIS: hari ini { $today } masuk ({ $todaysum }), 7 hari { $week } ({ $weeksum }); terbuka { $open }
admin-stats-payments-mismatch = ⚠️ { $mismatch } pembayaran QRIS tidak cocok dalam 7 hari (/payment)
admin-export-usage = Gunakan: /export &lt;YYYY-MM&gt;, misalnya /export 2026-11 (bulan dalam WIB).
admin-export-empty = Tidak ada pesanan pada { $month }.
admin-export-caption = 📄 Pesanan { $month }: { $orders } baris (waktu dalam UTC, jumlah dalam rupiah).

# ---------------------------------------------------------------- struk

btn-receipt = 🧾 Struk
receipt-title = Struk pembelian
receipt-product = Produk
receipt-destination = Tujuan
receipt-customer-no = No. pelanggan
receipt-name = Nama
receipt-tariff = Tarif/Daya
receipt-kwh = kWh
receipt-sn = SN
receipt-period = Periode
receipt-penalty = denda
receipt-admin = Biaya admin
receipt-paid = Total bayar
receipt-ref = Ref
receipt-footer = Terima kasih. Simpan struk ini sebagai bukti pembayaran.
receipt-not-yours = Struk hanya untuk pesanan berhasil milikmu.
laporan-usage = Gunakan: /laporan [7|30|90], jumlah hari (bawaan 7).
laporan-title = Laporan { $days } hari
laporan-revenue = Pendapatan (Rp)
laporan-margin = Margin (Rp)
laporan-orders = Pesanan
laporan-success-rate = Berhasil (%)
laporan-top = Produk terlaris
laporan-day = Hari (WIB)
# the short weekday names, Sunday first, one space apart (the chart labels its days "Sen 30/11")
laporan-weekdays = Min Sen Sel Rab Kam Jum Sab
laporan-caption = 📈 { $days } hari: { $orders } pesanan, { $rate } berhasil, pendapatan { $revenue }, margin { $margin }.
btn-laporan-csv = 📄 CSV
receipt-settings-title = 🧾 <b>Struk untuk pembelimu</b>
receipt-settings-name = Nama toko: { $name }
receipt-settings-default = (nama toko ini)
receipt-settings-markup = Tambahan harga di struk: { $markup }
receipt-settings-auto-on = Kirim struk otomatis: ya
receipt-settings-auto-off = Kirim struk otomatis: tidak
receipt-settings-usage = Ubah dengan: /struk nama &lt;nama tokomu&gt; · /struk harga &lt;tambahan, misalnya 2000&gt; · /struk otomatis on|off (tanda - menghapus nama atau tambahan).
receipt-settings-resellers = /struk hanya untuk reseller.
receipt-settings-bad-name = Nama toko 1–{ $max } huruf, misalnya /struk nama Toko Budi.
receipt-settings-bad-name-characters = Nama toko tidak boleh berisi karakter kontrol (seperti tab atau baris baru): tulis dalam satu baris, misalnya /struk nama Toko Budi.
receipt-settings-bad-markup = Tambahan harga berupa angka rupiah, misalnya /struk harga 2000.
cmd-harga = Daftar harga
price-list-index =
    📋 <b>Daftar harga</b>
    Pilih kategori, atau ketik /harga &lt;brand atau kategori&gt;, misalnya /harga telkomsel atau /harga telkomsel data.
price-list-title = 📋 <b>{ $scope }</b> · { $count } produk · { $page }/{ $pages }
price-list-reseller = Harga reseller kamu.
price-list-admin-fee = admin { $price }
price-list-not-found = Tidak ada brand atau kategori “{ $text }” yang dijual. Pilih kategori:
price-list-suggest = Maksud kamu yang mana?
btn-price-list-picture = 🖼 Gambar untuk dibagikan
btn-price-list-index = 📋 Semua kategori
price-list-picture-title = Daftar Harga { $scope }
price-list-picture-title-page = Daftar Harga { $scope } ({ $page }/{ $pages })
price-list-picture-as-of = Per { $when }
price-list-picture-more = … dan { $more } produk lagi.
price-list-picture-footer = Harga dapat berubah sewaktu-waktu.
price-list-picture-caption = 📋 { $scope }: { $count } produk, per { $when }.
price-list-picture-page = 🖼 Gambar { $page }/{ $pages }
price-list-picture-page-caption = 📋 { $scope } · gambar { $page }/{ $pages }
price-list-picture-cut = Gambar-gambar memuat { $shown } produk pertama; persempit dengan /harga &lt;brand&gt; &lt;kategori&gt;.
price-list-picture-markup = Harga di gambar sudah ditambah { $markup } (/struk harga).
price-list-picture-failed = ⚠️ Gambar daftar harga { $scope } tidak bisa dikirim. Daftarnya tetap bisa dilihat di atas, atau persempit dengan /harga &lt;brand&gt; &lt;kategori&gt; lalu coba lagi.
cmd-resume = Buka lagi produk yang dijeda
cmd-routes = Rute pemasok sebuah produk
cmd-pin = PIN dompet kamu
cmd-promote = Jadikan user reseller
cmd-upline = Pindahkan user di jaringan reseller
cmd-api = Kunci API H2H (callback gagal)
btn-product-resume = ▶️ Buka lagi sekarang
admin-routes-usage = Gunakan: /routes &lt;KODE&gt;, misalnya /routes TSEL10: pemasok produk itu, urutan dicoba.
admin-routes-title = 🔀 Rute <b>{ $code }</b>, dicoba berurutan:
admin-routes-active = aktif
admin-routes-inactive = tidak aktif di pemasok
admin-routes-disabled = dimatikan
admin-routes-paused = dijeda sampai { $until } (terlalu sering gagal)
admin-routes-no_product = Tidak ada produk { $code }.
admin-routes-no_route = Pemasok itu tidak punya rute untuk produk ini.
admin-routes-at_edge = Rute itu sudah di ujung.
admin-routes-changed = Rute diubah
admin-routes-order-manual = Urutan: manual (seperti digeser admin). Menurut modal: /routeorder cost
admin-routes-order-cost = Urutan: menurut modal (termurah dulu, diurutkan ulang tiap sinkron). Manual: /routeorder manual
admin-routes-by_cost = Rute diurutkan menurut modal: /routeorder manual dulu untuk menggesernya sendiri
cmd-unlinked = Produk pemasok lain yang belum tertaut
cmd-link = Tautkan produk pemasok lain ke produk
admin-unlinked-none = Semua produk pemasok lain sudah tertaut (atau tidak cocok dengan produk baru).
admin-unlinked-title = 🔗 { $total } produk pemasok lain menunggu ditautkan:
admin-unlinked-candidates = cocok dengan { $codes }
admin-unlinked-nomatch = tidak cocok dengan produk mana pun
admin-unlinked-more = … dan { $n } lagi (semua: kios routes --unlinked)
admin-link-usage = Gunakan: /link &lt;KODE&gt; &lt;pemasok&gt; &lt;kode di pemasok&gt;, misalnya /link TSEL10 backup BTSEL10. Lihat /unlinked.
admin-link-not_unlinked = Produk pemasok itu tidak sedang menunggu ditautkan (lihat /unlinked).
admin-link-bill = Tagihan dibayar di pemasok pertama: tidak punya rute.
admin-link-has_route = Produk ini sudah punya rute di pemasok itu (geser atau matikan lewat /routes).
cmd-minmargin = Margin minimum sebuah rute
admin-minmargin-now = 📏 Margin minimum: <b>{ $amount }</b>. Rute yang menyisakan kurang dari ini di atas modalnya tidak dicoba. Ubah: /minmargin &lt;rupiah&gt;, atau /minmargin reset (kembali ke MIN_MARGIN).
admin-minmargin-set = ✅ Margin minimum sekarang <b>{ $amount }</b>: rute yang menyisakan kurang dari ini tidak dicoba.
admin-minmargin-usage = Gunakan: /minmargin (lihat), /minmargin 500 (rupiah bulat, paling banyak { $max }), atau /minmargin reset.
cmd-routeorder = Urutan rute dicoba: manual atau menurut modal
admin-routeorder-now-cost = 🔀 Rute dicoba <b>menurut modal</b>: termurah dulu, diurutkan ulang tiap sinkron. Ubah: /routeorder cost atau /routeorder manual. Rute hanya dicoba bila menyisakan margin minimum (/minmargin).
admin-routeorder-now-manual = 🔀 Rute dicoba dengan urutan <b>manual</b>, seperti digeser admin di /routes. Ubah: /routeorder cost atau /routeorder manual. Rute hanya dicoba bila menyisakan margin minimum (/minmargin).
admin-routeorder-set-cost = ✅ Rute sekarang dicoba <b>menurut modal</b>, termurah dulu ({ $moved } digeser); sinkron berikutnya menjaganya begitu.
admin-routeorder-set-manual = ✅ Rute sekarang dicoba dengan urutan <b>manual</b>: tetap di tempatnya, bisa digeser di /routes.
admin-routeorder-usage = Gunakan: /routeorder (lihat), /routeorder cost atau /routeorder manual.
admin-resume-usage = Gunakan: /resume &lt;KODE&gt;, misalnya /resume TSEL10: membuka lagi produk yang dijeda.
admin-resume-done = ▶️ { $code } dibuka lagi untuk pembeli.
admin-resume-not-paused = { $code } tidak sedang dijeda.
admin-resume-toast = { $code } dibuka lagi
admin-resume-by = ▶️ dibuka lagi oleh { $admin }
admin-resume-already = (sudah tidak dijeda)

# inline mode: @bot <words> in any chat
inline-price = Harga: { $price }
inline-link = <a href="{ $link }">Beli di sini</a>
btn-inline-buy = 🛒 Beli
inline-none = Tidak ada yang cocok · buka toko
inline-empty = Ketik nama produk · atau buka toko

# copy buttons (copy_text): a result's SN or token, a transfer's reference and amount
btn-copy-sn = 📋 Salin SN
btn-copy-token = 📋 Salin token
btn-copy-reference = 📋 Salin kode
btn-copy-amount = 📋 Salin jumlah

# H2H API (/api)
api-off = API H2H belum aktif di toko ini.
api-off-admin =
    API H2H belum aktif di toko ini. Untuk menyalakannya, buat kunci enkripsi dengan <code>openssl rand -hex 32</code>, simpan sebagai <code>H2H_ENCRYPTION_KEY=…</code> di lingkungan atau <code>.env</code>, lalu jalankan ulang kios (docs/h2h.md).
api-resellers-only = API H2H hanya untuk reseller. Hubungi admin toko.
api-none = Kamu belum punya kunci API H2H.
    Alamat API: { $url }
api-btn-create = 🔑 Buat kunci API
api-title = 🔌 <b>API H2H</b>
api-url = Alamat: { $url }
api-state = Status: { $state }
api-state-on = aktif
api-state-off = dimatikan admin
api-state-revoked = dicabut (ganti kunci untuk mengaktifkan lagi)
api-callback = Callback: { $url }
api-chat-results = Hasil H2H di chat: { $on ->
        [on] aktif
       *[off] mati
    }
api-failures = ⚠️ Callback gagal terakhir:
api-failures-all = ⚠️ Callback gagal terakhir (semua reseller):
api-btn-rotate = 🔄 Ganti kunci
api-btn-revoke = ⛔ Cabut
api-btn-chat-on = 💬 Kirim hasil ke chat
api-btn-chat-off = 🔕 Jangan kirim hasil ke chat
api-secrets-title = 🔑 <b>Kunci API kamu</b> (pesan ini terhapus dalam 1 menit)
api-secrets-note = Simpan di server kamu sekarang. Kunci ini tidak akan ditampilkan lagi; kalau hilang, ganti kunci.
api-revoked = Kunci dicabut.
# the reseller network (docs/resellers.md)
resellers-only = Fitur ini untuk reseller. Hubungi admin untuk menjadi reseller.
joined-upline = 🤝 Kamu terdaftar sebagai downline <b>{ $upline }</b>. Harga yang kamu lihat adalah harga darinya.
joined-notice = 🎉 <b>{ $who }</b> mendaftar lewat link-mu dan kini menjadi downline-mu.
join-too-deep = Link ini tidak bisa dipakai: jaringan sudah { $depth } tingkat (batas toko).
join-offer =
    🤝 <b>{ $upline }</b> mengajakmu menjadi downline-nya.
    Bila bergabung, harga yang kamu lihat mengikuti harga { $upline } (termasuk markup-nya), dan { $upline } dapat melihat saldo serta riwayat belanjamu. Setelah itu hanya admin toko yang bisa memindahkanmu.
    Bergabung?
btn-join-yes = ✅ Gabung
btn-join-no = ✖ Tidak
join-declined = Kamu tidak bergabung. Harga dan akunmu tetap seperti sebelumnya.
join-in-trade-reseller = Kamu sudah reseller, jadi tidak bisa bergabung ke jaringan lain lewat link. Bila memang ingin pindah, minta admin toko (/upline).
join-in-trade-downlines = Kamu sudah punya downline, jadi tidak bisa bergabung ke jaringan lain lewat link. Bila memang ingin pindah, minta admin toko (/upline).
join-link-gone = Link ini sudah tidak berlaku.
join-already = Kamu sudah menjadi downline reseller lain.
downline-link =
    🤝 <b>Link pendaftaran downline</b>
    { $link }
    Pelanggan yang membuka link ini dan menyetujuinya menjadi downline-mu dan membeli dengan hargamu + markup-mu (/markup).
btn-referral-qr = 📷 QR link
referral-qr-caption = Pindai untuk mendaftar: { $link }
downline-empty = Belum ada downline. Bagikan link di atas.
downline-title = 👥 <b>Downline ({ $count })</b> · hal. { $page }/{ $pages }
downline-row = { $n }. { $who } · belanja bulan ini { $spent } · saldo { $balance }
downline-detail =
    👤 <b>{ $who }</b> · ID <code>{ $id }</code>
    Bergabung: { $joined }
    Belanja bulan ini: { $spent }
    Saldo: { $balance }
    Downline-nya: { $downlines }
reseller-markup-title = 📈 <b>Markup untuk downline-mu</b> (di atas hargamu; batas toko: { $maxflat } atau { $maxpercent } % per tingkat)
reseller-markup-none = Belum ada markup: downline membeli dengan hargamu.
reseller-markup-row = #{ $id } { $scope }: { $markup }
reseller-markup-usage =
    Atur: <code>/markup semua 2%</code>, <code>/markup semua 500</code>,
    <code>/markup kategori Pulsa 1% 200</code>, <code>/markup produk TSEL10 300</code>
    Hapus: <code>/markup hapus &lt;nomor&gt;</code>
reseller-markup-set = ✅ Markup #{ $id } { $scope }: { $markup }
reseller-markup-deleted = 🗑 Markup #{ $id } dihapus.
reseller-markup-not-found = Tidak ada markup #{ $id }.
reseller-markup-refused = ❌ { $reason }
scope-all = semua produk
scope-name = { $scope ->
    [all] semua produk
    [category] kategori
    [brand] brand
    [product] produk
    [type] tipe
   *[other] { $scope }
}
pricing-refused-invalid-scope = cakupan "{ $got }" tidak dikenal (semua, kategori, brand, produk)
pricing-refused-invalid-tier = peran harus customer atau reseller (tertulis "{ $got }")
pricing-refused-invalid-percent = persentase harus dari { $min } % sampai { $max } % (tertulis { $got } %)
pricing-refused-invalid-flat = jumlah harus rupiah bulat dari { $min } sampai { $max } (tertulis { $got })
pricing-refused-invalid-step = pembulatan harus rupiah bulat dari { $min } sampai { $max } (tertulis { $got })
pricing-refused-invalid-scope-value = { $needs ->
    [yes] aturan untuk { $scope } butuh nilainya
   *[no] aturan untuk { $scope } tidak memakai nilai
}
pricing-refused-unknown-scope-value = tidak ada produk di katalog dengan { $scope } "{ $got }" (sinkronkan katalog dulu?)
pricing-refused-rule-not-found = tidak ada aturan markup #{ $id }
admin-upline-usage = Gunakan: /upline &lt;id&gt; &lt;id upline|-&gt; (pindahkan user; - = tanpa upline)
admin-promote-usage = Gunakan: /promote &lt;id&gt; [id upline] (jadikan reseller, di bawah upline bila disebut)
admin-tree-done = ✅ User { $user }: { $upline }.
admin-promote-done = ✅ User { $user } sekarang reseller ({ $upline }). Dia sudah diberi tahu.
admin-tree-refused = ❌ { $reason }
tree-self = user tidak bisa menjadi upline dirinya sendiri
tree-cycle = upline itu ada di bawah user ini (jaringan akan berputar)
tree-too-deep = jaringan akan lebih dari { $depth } tingkat
tree-unknown-upline = kios belum pernah melihat user { $upline }: upline harus user yang sudah memulai bot
tree-no-upline = tanpa upline
tree-upline = upline { $upline }
earnings-usage = Gunakan: /komisi [hari], 1 sampai 90 (bawaan 7).
earnings-title = 💰 <b>Komisi { $days } hari terakhir</b>: { $total } dari { $orders } transaksi
earnings-none = Belum ada komisi. Komisi masuk ke saldomu saat transaksi downline berhasil.
earnings-by-day = <b>Per hari</b>
earnings-by-downline = <b>Per downline</b>
earnings-row = { $label }: { $amount } ({ $orders } trx)
transfer-usage = Gunakan: /transfer &lt;id atau @username&gt; &lt;jumlah&gt;, misalnya <code>/transfer @sari 50000</code>.
transfer-unknown-user = Tidak ada pengguna { $who }.
transfer-bad-amount = Jumlahnya tidak valid.
transfer-self = Tidak bisa transfer ke diri sendiri.
transfer-not-downline = Transfer hanya ke downline langsungmu (lihat /downline).
transfer-moved-away = ❌ ID <code>{ $id }</code> sudah bukan downline langsungmu lagi.
transfer-above-max = ❌ Paling banyak { $max } sekali transfer.
transfer-daily-cap = ❌ Batas transfer harian { $cap }; sisa hari ini { $left }.
transfer-short = ❌ Saldo tidak cukup (saldo { $balance }).
transfer-not-found = Transfer ini sudah tidak berlaku.
transfer-expired = ⌛ Transfer ini kedaluwarsa. Kirim /transfer lagi.
transfer-card =
    💸 <b>Transfer saldo</b>
    Ke: { $to } (ID <code>{ $id }</code>)
    Jumlah: { $amount }
    Saldo: { $balance } → { $after }
btn-transfer-send = ✅ Kirim
transfer-done = ✅ { $amount } terkirim ke ID <code>{ $id }</code>. Saldo: { $balance }
transfer-received = 💸 Kamu menerima { $amount } dari { $from }. Saldo: { $balance }
transfer-cancelled = Transfer dibatalkan.
transfer-not-sent = Tidak ada saldo yang dikirim.
pin-enter = Masukkan PIN di tombol angka.
pin-pad-typed = 🔒 PIN { $dots }
pin-wrong = PIN salah. Sisa { $left } kali sebelum terkunci.
pin-locked = Terkunci karena PIN salah 5 kali, sampai { $until }.
pin-locked-notice = 🔒 PIN salah 5 kali. Bayar dan transfer terkunci sampai { $until }. Bukan kamu? Hubungi admin.
pin-left-unchanged = Dibatalkan. PIN tidak diubah: Bayar dan transfer tetap memintanya.
pin-left-none = Dibatalkan. PIN belum dibuat: kirim /pin untuk membuatnya.
btn-pin-retry = 🔒 Coba lagi
pin-new = 🔐 Buat PIN baru (4–6 angka) dengan tombol di bawah, lalu ✅.
pin-old = 🔐 Masukkan PIN kamu sekarang dengan tombol di bawah, lalu ✅.
pin-repeat = 🔐 Ketik PIN baru sekali lagi, lalu ✅.
pin-mismatch = Kedua PIN berbeda. Buat PIN baru lagi.
pin-pad-expired = Tombol PIN ini sudah kedaluwarsa. Tekan lagi untuk membuka yang baru.
pin-invalid = PIN harus 4 sampai 6 angka.
pin-set-done = ✅ PIN aktif. Bayar dan transfer akan meminta PIN.
pin-status-on = 🔐 PIN aktif: Bayar dan transfer meminta PIN.
btn-pin-change = Ganti PIN
btn-pin-remove = Hapus PIN
pin-removed = PIN dihapus.
downline-ask-pin = 🔐 Lindungi saldomu: atur PIN dengan /pin.
api-usage = Pakai /api, atau /api callback &lt;https://alamat-server-kamu&gt; (none: hapus).
api-no-key = Buat kunci API dulu dengan /api.
api-callback-refused = URL callback ditolak: { $reason }.
# why a callback or report URL is refused (checkCallbackUrl's codes, api-keys/url-refusal.ts)
url-refused-not-url = bukan URL
url-refused-credentials = tidak boleh memuat nama pengguna atau kata sandi
url-refused-too-long = lebih dari 500 karakter
url-refused-not-https = harus https
url-refused-local-name = tidak boleh menunjuk mesin ini atau jaringan lokal
url-refused-private-address = tidak boleh alamat privat, loopback atau link-local
api-callback-confirm = Ubah alamat callback ke { $url }? Masukkan PIN untuk menyimpan.
repeat-warning = ⚠️ Kamu sudah membeli ini untuk nomor ini hari ini pukul { $time }. Beli lagi?
quick-repeat = ⚠️ Sudah dibeli hari ini pukul { $time }. Untuk membeli lagi, kirim <code>{ $again }</code>.
pay-bought-today = ⚠️ Belum dibayar: ini sudah dibeli untuk nomor ini hari ini pukul { $time }, setelah kartu ini dibuat. Untuk membeli lagi, ambil kartu baru (kartu itu menanyakannya dulu).

# the center's text commands (docs/center.md#text-commands)
center-resellers-only = Perintah teks pusat hanya untuk reseller. Pesanmu sudah dihapus karena memuat PIN.
center-pin-unreadable = PIN di perintah itu tidak bisa dibaca. Kirim perintahnya sekali lagi.
center-no-pin = Perintah teks memakai PIN dompet. Buat PIN dulu dengan /pin.
center-pin-format = PIN adalah 4–6 angka, di akhir perintah (misalnya <code>S.1234</code>).
center-pin-only-last = PIN cukup sekali, di akhir: <code>TSEL10.0812…,XL5.0813….1234</code>
center-ref-repeated = R#{ $ref } dipakai dua kali dalam satu pesan. Tidak ada yang dipesan.
center-too-many = Paling banyak { $max } pesanan dalam satu pesan. Tidak ada yang dipesan.
center-unknown-keyword = Perintah { $word } tidak dikenal. Yang dikenal: { $list }. Pembelian: <code>KODE.TUJUAN.PIN</code>.
center-format = Format salah, tidak ada yang dijalankan. Pakai: { $usage }
center-usage-buy = <code>KODE.TUJUAN.PIN</code>, <code>KODE.2.TUJUAN.PIN</code> (yang ke-2 hari ini), <code>KODE.TUJUAN,KODE.TUJUAN.PIN</code>; bisa ditambah <code>R#refkamu</code> di akhir tiap pesanan
center-usage-s = <code>S.PIN</code>
center-usage-sal = <code>SAL.PIN</code>
center-usage-h = <code>H.KODE.PIN</code>
center-usage-cek = <code>CEK.TUJUAN.PIN</code>
center-usage-sta = <code>STA.REF.PIN</code>
center-usage-rekap = <code>REKAP.PIN</code> atau <code>REKAP.DD-MM-YYYY.PIN</code>
center-usage-tiket = <code>TIKET.JUMLAH.PIN</code>
center-usage-gp = <code>GP.PINLAMA.PINBARU</code>
center-usage-trans = <code>TRANS.ID.JUMLAH.PIN</code>
center-price = H { $code }: { $name }. Harga { $price }
center-check-none = Tidak ada transaksi ke { $dest } hari ini.
center-recap = Rekap { $day }: { $success } sukses, { $failed } gagal, { $pending } proses. Total sukses { $spent }. Saldo { $balance }
center-pin-changed = ✅ PIN diganti. Perintah teks berikutnya memakai PIN baru.
center-pin-changed-meanwhile = PIN sudah diganti di tempat lain. Tidak ada yang diubah.
center-key-none = Kamu belum punya akses pusat (memberID, pin, password) untuk software OtomaX/IRS/ST24.
center-key-btn-create = 🔑 Buat akses pusat
center-key-title = 🛰 <b>Akses pusat (OtomaX)</b>
center-key-report = URL laporan: { $url }
center-key-ips = IP yang diizinkan: { $ips }
center-key-usage = Ubah: <code>/api center report https://alamat-kamu</code> (none: hapus), <code>/api center ips 1.2.3.4,5.6.7.8</code> (none: semua).
center-key-secrets-title = 🔑 <b>Akses pusat kamu</b> (pesan ini terhapus dalam 1 menit)
center-key-has = Kamu sudah punya akses pusat: ganti saja.
center-key-revoked = Akses pusat dicabut.
center-key-report-confirm = Ubah URL laporan ke { $url }? Masukkan PIN untuk menyimpan.
center-key-ips-confirm = Izinkan hanya IP { $ips }? Masukkan PIN untuk menyimpan.
center-key-ips-bad = Tulis alamat IP dipisah koma, misalnya <code>1.2.3.4,5.6.7.8</code>, atau none.

## why a callback or report was not delivered (bot/api-keys/delivery-failure.ts)
delivery-http = server menjawab HTTP { $status }{ $redirect ->
    [yes] {" "}(pengalihan tidak diikuti)
   *[no] {""}
}
delivery-broke-off = jawaban server terputus
delivery-timeout = tidak ada jawaban lengkap dalam { $seconds } detik
delivery-connect = tidak bisa tersambung ({ $code })
delivery-private-host = alamat server mengarah ke jaringan privat atau lokal
delivery-no-url = belum ada URL callback
delivery-url-refused = URL callback ditolak aturan (https, bukan alamat privat): atur lagi dengan /api callback

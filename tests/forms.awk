# forms.awk: the POST forms of an HTML page, filled in.
#   awk -v mode=pick -v want="action=work card=X01" -v only=act -f forms.awk
#   awk -v mode=random -v seed=N -v only=act -f forms.awk
#   awk -v mode=list -f forms.awk
# pick: the first form whose fields can take every NAME=VALUE of want (a
# hidden field with that value, a select, radio or named button with that
# option, a text field); random: any form, random choices (a select named
# oN takes its selected option, else its N-th, so an order stays an
# order).  Prints the form's action and its urlencoded body, tab-
# separated; exit 1 if no form fits.  list: the forms, for people.
function decode(s) {
	gsub(/&quot;/, "\"", s); gsub(/&#39;/, "'", s); gsub(/&#x27;/, "'", s)
	gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&amp;/, "\\&", s)
	return s
}
function urlenc(s,    i, c, r) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c ~ /[A-Za-z0-9_.~-]/) r = r c
		else if (c == " ") r = r "+"
		else r = r sprintf("%%%02X", ord[c])
	}
	return r
}
function attrs(t,    m, name, val) {
	split("", A)
	sub(/^<[A-Za-z0-9]+/, "", t)
	sub(/\/?>$/, "", t)
	while (match(t, /[A-Za-z_:][-A-Za-z0-9_:.]*/)) {
		name = tolower(substr(t, RSTART, RLENGTH))
		t = substr(t, RSTART + RLENGTH)
		val = ""
		if (match(t, /^[ \t\n]*=[ \t\n]*/)) {
			t = substr(t, RLENGTH + 1)
			if (substr(t, 1, 1) == "\"") {
				m = index(substr(t, 2), "\"")
				val = substr(t, 2, m - 1); t = substr(t, m + 2)
			} else if (substr(t, 1, 1) == "'") {
				m = index(substr(t, 2), "'")
				val = substr(t, 2, m - 1); t = substr(t, m + 2)
			} else if (match(t, /^[^ \t\n>]+/)) {
				val = substr(t, 1, RLENGTH); t = substr(t, RLENGTH + 1)
			}
		}
		A[name] = decode(val)
	}
}
function field(kind, name, value, on,    k) {
	k = ++nfield[nf]
	fkind[nf, k] = kind; fname[nf, k] = name
	fval[nf, k] = value; fon[nf, k] = on
}
BEGIN {
	for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
	html = ""
}
{ html = html $0 "\n" }
END {
	nf = 0; inform = 0; insel = ""; optopen = 0
	rest = html
	while ((p = index(rest, "<")) > 0) {
		text = substr(rest, 1, p - 1)
		if (optopen) {
			optopen = 0
			if (!optval_set) {
				gsub(/^[ \t\n]+|[ \t\n]+$/, "", text)
				fval[nf, nfield[nf]] = decode(text)
			}
		}
		rest = substr(rest, p)
		if (substr(rest, 1, 4) == "<!--") {
			q = index(rest, "-->"); rest = substr(rest, q + 3); continue
		}
		q = index(rest, ">")
		if (q == 0) break
		tag = substr(rest, 1, q); rest = substr(rest, q + 1)
		match(tag, /^<\/?[A-Za-z0-9]+/)
		tname = tolower(substr(tag, 2, RLENGTH - 1))
		attrs(tag)
		if (tname == "form") {
			inform = 1; nf++; nfield[nf] = 0
			fmethod[nf] = toupper(("method" in A) ? A["method"] : "GET")
			faction[nf] = A["action"]
		} else if (tname == "/form") {
			inform = 0
		} else if (!inform) {
			continue
		} else if (tname == "input" && ("name" in A) && !("disabled" in A)) {
			type = tolower(("type" in A) ? A["type"] : "text")
			if (type == "radio" || type == "checkbox")
				field(type, A["name"], ("value" in A) ? A["value"] : "on",
				    ("checked" in A))
			else if (type == "submit" || type == "image")
				field("button", A["name"], A["value"], 0)
			else if (type != "reset" && type != "file")
				field(type == "hidden" ? "hidden" : "text", A["name"],
				    A["value"], 1)
		} else if (tname == "button" && ("name" in A)) {
			t = tolower(("type" in A) ? A["type"] : "submit")
			if (t == "submit")
				field("button", A["name"], A["value"], 0)
		} else if (tname == "select") {
			insel = ("name" in A) ? A["name"] : ""
		} else if (tname == "/select") {
			insel = ""
		} else if (tname == "option" && insel != "" && !("disabled" in A)) {
			optval_set = ("value" in A); optopen = 1
			field("option", insel, A["value"], ("selected" in A))
		} else if (tname == "textarea" && ("name" in A)) {
			field("text", A["name"], "", 1)
		}
	}
	if (mode == "list") {
		for (f = 1; f <= nf; f++) {
			print "form " f " " fmethod[f] " " faction[f]
			for (k = 1; k <= nfield[f]; k++)
				print "  " fkind[f, k] " " fname[f, k] "=" fval[f, k] \
				    (fon[f, k] ? " *" : "")
		}
		exit 0
	}
	nw = split(want, wl, " ")
	for (i = 1; i <= nw; i++) {
		e = index(wl[i], "=")
		wname[i] = substr(wl[i], 1, e - 1); wval[i] = substr(wl[i], e + 1)
	}
	srand(seed + 0)
	nc = 0
	for (f = 1; f <= nf; f++) {
		if (fmethod[f] != "POST") continue
		if (only != "" && faction[f] !~ only) continue
		if (mode == "pick") {
			ok = 1
			for (i = 1; i <= nw && ok; i++) {
				hit = 0
				for (k = 1; k <= nfield[f]; k++)
					if (fname[f, k] == wname[i] && (fkind[f, k] == "text" ||
					    fval[f, k] == wval[i]))
						hit = 1
				if (!hit) ok = 0
			}
			if (!ok) continue
		}
		cand[++nc] = f
	}
	if (nc == 0) exit 1
	f = (mode == "pick") ? cand[1] : cand[1 + int(rand() * nc)]
	# A choice group (select, radio, named buttons) sends one value;
	# hidden and text fields theirs; a checkbox its value if checked.
	split("", done); body = ""
	for (k = 1; k <= nfield[f]; k++) {
		name = fname[f, k]; kind = fkind[f, k]
		if (name in done) continue
		v = ""; have = 0
		for (i = 1; i <= nw; i++)
			if (wname[i] == name) { v = wval[i]; have = 1 }
		if (kind == "hidden" || kind == "text") {
			if (!have) v = fval[f, k]
			body = body (body == "" ? "" : "&") urlenc(name) "=" urlenc(v)
			continue
		}
		if (kind == "checkbox") {
			if (fon[f, k] || (have && v == fval[f, k]))
				body = body (body == "" ? "" : "&") urlenc(name) "=" \
				    urlenc(fval[f, k])
			continue
		}
		done[name] = 1
		if (!have) {
			n = 0; def = ""
			for (j = k; j <= nfield[f]; j++)
				if (fname[f, j] == name && fkind[f, j] == kind) {
					vals[++n] = fval[f, j]
					if (fon[f, j] && def == "") def = fval[f, j]
				}
			if (kind == "option" && def == "")
				def = (name ~ /^o[0-9]$/ && n >= substr(name, 2) + 0) ? \
				    vals[substr(name, 2) + 0] : vals[1]
			if (mode == "random" && !(name ~ /^o[0-9]$/ && kind == "option"))
				v = vals[1 + int(rand() * n)]
			else
				v = (def != "") ? def : vals[1]
			if (kind == "radio" && v == "") continue
		}
		body = body (body == "" ? "" : "&") urlenc(name) "=" urlenc(v)
	}
	print faction[f] "\t" body
}

# Open Interpreter's R session: runs cells like a notebook in one persistent global environment.
#
# Protocol: docs/exec-protocol.md. Base R only (no jsonlite, no base64 package). Base R has no Unix
# domain sockets, so the side channel is two FIFOs main created in the session's private folder:
# OI_CHANNEL_IN (main -> runner) and OI_CHANNEL_OUT (runner -> main), NDJSON as for the other
# runners. The terminal (a pty) carries only what user code prints.
#
# Choices, as a user of the session sees them:
# - Cells are evaluated in the global environment: variables, functions and library() calls carry
#   over. The runner's own state lives in a private environment, so ls() shows only the user's.
# - display(), HTML(), Markdown() and `files` (oi_files.R) are on the search path as "oi:helpers".
# - Each top-level expression is evaluated in turn with withVisible(), as the R console does. Visible
#   values of earlier expressions are printed to the terminal; a visible value of the last one is the
#   cell's execute_result (its print() text).
# - Warnings are printed to stderr as they happen (like options(warn = 1)): a non-interactive R
#   would otherwise keep them for a top-level prompt that never comes.
# - Plots: R opens the default device lazily; here that device is a PNG file per cell, closed at the
#   end of the cell and sent as image/png. A plot therefore does not carry over to the next cell.
#   Each page is placed where it was started (a position marker at each new page), so text printed
#   before plot() comes before the picture and text printed after it comes after.
# - Ctrl-C (SIGINT) interrupts the running cell (an `interrupt` condition); the session lives on.
#   Outside cells interrupts are held pending, not ignored (R cannot ignore a signal from R code),
#   and a pending one is dropped as a cell begins: it was meant for a run that is over (main keeps
#   repeating its Ctrl-C until it has seen a run end) or for nothing (a Ctrl-C between cells). One
#   meant for this run that comes before its cell starts is dropped too; main's next repeat stops it.

local({
  state <- new.env(parent = emptyenv())
  state$run_id <- NULL
  state$count <- NULL
  state$eval_depth <- 0L
  state$calls <- NULL
  state$devices <- integer(0)
  state$plot_dir <- NULL
  # The run's nonce (NULL between runs) and the next output's number, for position markers.
  state$nonce <- NULL
  state$seq <- 0L
  state$input_seq <- 0L
  # This cell's plot devices in the order opened: list(device, prefix, seqs = marker per page).
  state$plots <- list()
  state$page_starts <- FALSE

  # --- JSON ---------------------------------------------------------------------------------------

  valid_utf8 <- function(s) {
    s <- enc2utf8(as.character(s))
    bad <- !validUTF8(s)
    if (any(bad)) s[bad] <- iconv(s[bad], "UTF-8", "UTF-8", sub = "\ufffd")
    s
  }

  json_string <- function(s) {
    s <- valid_utf8(s)
    s <- gsub("\\", "\\\\", s, fixed = TRUE)
    s <- gsub("\"", "\\\"", s, fixed = TRUE)
    s <- gsub("\n", "\\n", s, fixed = TRUE)
    s <- gsub("\r", "\\r", s, fixed = TRUE)
    s <- gsub("\t", "\\t", s, fixed = TRUE)
    if (grepl("[\001-\037\177]", s, perl = TRUE)) {
      for (code in c(1:31, 127)) {
        ch <- intToUtf8(code)
        s <- gsub(ch, sprintf("\\u%04x", code), s, fixed = TRUE)
      }
    }
    paste0("\"", s, "\"")
  }

  # Named lists are objects, unnamed lists arrays, length-one atomics scalars, NULL null.
  to_json <- function(x) {
    if (is.null(x)) return("null")
    if (is.list(x)) {
      if (!is.null(names(x))) {
        parts <- vapply(names(x), function(k) paste0(json_string(k), ":", to_json(x[[k]])), "")
        return(paste0("{", paste(parts, collapse = ","), "}"))
      }
      return(paste0("[", paste(vapply(x, to_json, ""), collapse = ","), "]"))
    }
    if (length(x) != 1L || is.na(x)) {
      if (length(x) == 1L) return("null")
      return(paste0("[", paste(vapply(as.list(x), to_json, ""), collapse = ","), "]"))
    }
    if (is.logical(x)) return(if (x) "true" else "false")
    if (is.numeric(x)) return(format(x, scientific = FALSE, digits = 15))
    json_string(x)
  }

  # Possessive quantifiers: a string token of megabytes is matched without backtracking.
  TOKEN <- "\"(?:[^\"\\\\]++|\\\\.)*+\"|-?[0-9]++(?:\\.[0-9]++)?(?:[eE][-+]?[0-9]++)?|true|false|null|[{}\\[\\],:]"
  ESCAPE <- "\\\\u[dD][89abAB][0-9a-fA-F]{2}\\\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\\\u[0-9a-fA-F]{4}|\\\\."
  SIMPLE <- c(n = "\n", t = "\t", r = "\r", b = "\b", f = "\f", "/" = "/", "\\" = "\\", "\"" = "\"")

  # Cuts the string at its escapes by byte position and pastes the pieces back around their
  # replacements: linear, where regmatches<- or strsplit take seconds to minutes on a 1 MB cell.
  json_unescape <- function(s) {
    if (!grepl("\\", s, fixed = TRUE)) return(s)
    match <- gregexpr(ESCAPE, s, perl = TRUE, useBytes = TRUE)[[1]]
    start <- as.integer(match)
    end <- start + attr(match, "match.length") - 1L
    bytes <- s
    Encoding(bytes) <- "bytes" # substring() by byte offsets, without walking UTF-8 each time
    found <- substring(bytes, start, end)
    pieces <- substring(bytes, c(1L, end + 1L), c(start - 1L, nchar(bytes, type = "bytes")))
    Encoding(found) <- "UTF-8"
    Encoding(pieces) <- "UTF-8" # cut at ASCII escapes only, so each piece is still UTF-8
    codes <- integer(length(found))
    pair <- nchar(found) == 12L
    single <- !pair & substr(found, 2L, 2L) == "u"
    hi <- strtoi(substr(found[pair], 3L, 6L), 16L)
    lo <- strtoi(substr(found[pair], 9L, 12L), 16L)
    codes[pair] <- 65536L + (hi - 55296L) * 1024L + (lo - 56320L)
    codes[single] <- strtoi(substr(found[single], 3L, 6L), 16L)
    codes[single & codes >= 55296L & codes <= 57343L] <- 65533L # a lone surrogate
    replacement <- character(length(found))
    unicode <- pair | single
    replacement[unicode] <- vapply(codes[unicode], intToUtf8, "")
    simple <- SIMPLE[substr(found[!unicode], 2L, 2L)]
    replacement[!unicode] <- ifelse(is.na(simple), substr(found[!unicode], 2L, 2L), simple)
    paste(c(rbind(pieces, c(replacement, ""))), collapse = "")
  }

  json_parse <- function(line) {
    tokens <- regmatches(line, gregexpr(TOKEN, line, perl = TRUE))[[1]]
    pos <- 1L
    value <- function() {
      token <- tokens[pos]
      pos <<- pos + 1L
      if (is.na(token)) stop("unexpected end of JSON")
      first <- substr(token, 1L, 1L)
      if (first == "{") {
        out <- list()
        if (tokens[pos] == "}") { pos <<- pos + 1L; return(out) }
        repeat {
          key <- value()
          if (!identical(tokens[pos], ":")) stop("expected ':'")
          pos <<- pos + 1L
          item <- value()
          out[key] <- list(item)
          sep <- tokens[pos]
          pos <<- pos + 1L
          if (identical(sep, "}")) return(out)
          if (!identical(sep, ",")) stop("expected ',' or '}'")
        }
      }
      if (first == "[") {
        out <- list()
        if (tokens[pos] == "]") { pos <<- pos + 1L; return(out) }
        repeat {
          out[length(out) + 1L] <- list(value()) # keeps a null element
          sep <- tokens[pos]
          pos <<- pos + 1L
          if (identical(sep, "]")) return(out)
          if (!identical(sep, ",")) stop("expected ',' or ']'")
        }
      }
      if (first == "\"") return(json_unescape(substr(token, 2L, nchar(token) - 1L)))
      if (token == "true") return(TRUE)
      if (token == "false") return(FALSE)
      if (token == "null") return(NULL)
      as.numeric(token)
    }
    value()
  }

  # --- base64, for PNG bytes ------------------------------------------------------------------------

  B64 <- strsplit("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", "")[[1]]

  base64 <- function(bytes) {
    n <- length(bytes)
    if (n == 0L) return("")
    pad <- (3L - n %% 3L) %% 3L
    v <- matrix(as.integer(c(bytes, as.raw(rep(0L, pad)))), nrow = 3L)
    w <- v[1L, ] * 65536L + v[2L, ] * 256L + v[3L, ]
    index <- rbind(w %/% 262144L, (w %/% 4096L) %% 64L, (w %/% 64L) %% 64L, w %% 64L) + 1L
    chars <- B64[index]
    if (pad > 0L) chars[(length(chars) - pad + 1L):length(chars)] <- "="
    paste(chars, collapse = "")
  }

  # --- channel --------------------------------------------------------------------------------------

  # Main holds both FIFOs open read-write, so these opens return at once instead of waiting.
  # Plot files go beside the FIFOs, in the session's private folder: main removes it with the
  # session, even when R is killed before it could delete them.
  state$plot_dir <- file.path(dirname(Sys.getenv("OI_CHANNEL_IN")), "plots")
  chan_in <- fifo(Sys.getenv("OI_CHANNEL_IN"), open = "r", blocking = TRUE)
  chan_out <- fifo(Sys.getenv("OI_CHANNEL_OUT"), open = "w", blocking = TRUE)
  Sys.unsetenv(c("OI_CHANNEL_IN", "OI_CHANNEL_OUT")) # subprocesses have no use for them

  send <- function(message) {
    force(message) # an error while building the message belongs to the caller, not to the channel
    ok <- tryCatch({
      writeLines(to_json(message), chan_out, useBytes = TRUE)
      flush(chan_out)
      TRUE
    }, error = function(e) FALSE)
    if (!ok) quit(save = "no", status = 0L, runLast = FALSE) # main is gone
  }

  receive <- function() {
    repeat {
      line <- readLines(chan_in, n = 1L, encoding = "UTF-8", warn = FALSE)
      if (length(line) == 0L) return(NULL)
      message <- tryCatch(json_parse(line), error = function(e) NULL)
      if (is.list(message) && !is.null(message$type)) return(message)
    }
  }

  flush_streams <- function() {
    try(flush(stdout()), silent = TRUE)
    try(flush(stderr()), silent = TRUE)
  }

  # A position marker in the terminal, after everything printed so far; returns its number, or
  # NULL between runs and while a sink() diverts output (the marker would land in the sink's file).
  mark <- function() {
    flush_streams()
    if (is.null(state$nonce) || sink.number() > 0L) return(NULL)
    seq <- state$seq
    state$seq <- seq + 1L
    cat(sprintf("\033]633;P;OiOutput=%s:%d\a", state$nonce, seq))
    flush_streams()
    seq
  }

  # Sends an output numbered like its marker (written now, or earlier when seq is given), so main
  # puts it exactly there; without a number main places it where the text has got to.
  emit <- function(output, seq = NULL) {
    force(output)
    if (is.null(seq)) seq <- mark()
    message <- list(type = "output", id = state$run_id)
    if (!is.null(seq)) message$seq <- seq
    message$output <- output
    send(message)
  }

  # --- input (docs/exec-protocol.md#input) --------------------------------------------------------------

  # A marker where the question stands in the output, then the request to main; waits for the reply.
  # NULL means end-of-input, also between runs, when nobody is asked. Interrupts are held while
  # waiting; main answers an open question with end-of-input when it interrupts the run.
  ask_input <- function(prompt, password = FALSE) {
    if (is.null(state$nonce)) return(NULL)
    seq <- state$input_seq
    state$input_seq <- seq + 1L
    flush_streams()
    cat(prompt)
    if (sink.number() == 0L) cat(sprintf("\033]633;P;OiInput=%s:%d\a", state$nonce, seq))
    flush_streams()
    send(list(type = "input_request", id = state$run_id, seq = seq, prompt = prompt, password = password))
    repeat {
      message <- suspendInterrupts(receive())
      if (is.null(message) || identical(message$type, "shutdown")) quit(save = "no", status = 0L, runLast = FALSE)
      if (identical(message$type, "input_reply") && identical(as.integer(message$seq), seq)) break
    }
    if (isTRUE(message$eof)) return(NULL)
    value <- valid_utf8(if (is.null(message$value)) "" else message$value)
    cat(if (password) "\n" else paste0(value, "\n"))
    value
  }

  reads_stdin <- function(con) {
    if (is.character(con)) return(identical(con, "stdin"))
    inherits(con, "connection") && identical(tryCatch(summary(con)$description, error = function(e) ""), "stdin")
  }

  # --- plots ----------------------------------------------------------------------------------------

  EMPTY <- structure(list(), names = character(0)) # {} in JSON

  # One file prefix per device, so a device opened after the user closed the first one does not
  # overwrite its pages.
  open_plot <- function(...) {
    prefix <- sprintf("cell-%s-%d", state$run_id, length(state$plots) + 1L)
    file <- file.path(state$plot_dir, paste0(prefix, "-%03d.png"))
    type <- if (capabilities("cairo")) "cairo" else getOption("bitmapType")
    grDevices::png(filename = file, width = 672L, height = 480L, res = 96L, type = type)
    state$devices <- c(state$devices, grDevices::dev.cur())
    state$plots[[length(state$plots) + 1L]] <- list(device = as.integer(grDevices::dev.cur()), prefix = prefix, seqs = integer(0))
  }

  # Page hooks: a marker where each page on our device starts (base graphics ask par("page")
  # whether plot.new() starts one: with mfrow it may only move to the next panel; grid always does).
  before_plot_new <- function() {
    state$page_starts <- grDevices::dev.cur() == 1L || isTRUE(graphics::par("page"))
  }
  page_started <- function(starts = state$page_starts) {
    force(starts) # before the reset below (a default argument is evaluated when first used)
    state$page_starts <- FALSE
    if (!starts || is.null(state$nonce)) return(invisible())
    current <- as.integer(grDevices::dev.cur())
    for (i in rev(seq_along(state$plots))) {
      if (state$plots[[i]]$device != current) next
      seq <- mark()
      state$plots[[i]]$seqs <- c(state$plots[[i]]$seqs, if (is.null(seq)) NA_integer_ else seq)
      break
    }
    invisible()
  }

  # Closes the devices this cell's plots opened (not ones the user opened) and sends their pages,
  # each numbered like the marker written where it started.
  send_plots <- function() {
    for (device in state$devices) {
      if (device %in% grDevices::dev.list()) try(grDevices::dev.off(device), silent = TRUE)
    }
    state$devices <- integer(0)
    plots <- state$plots
    state$plots <- list()
    for (plot in plots) {
      pattern <- sprintf("^%s-[0-9]+\\.png$", plot$prefix)
      for (file in sort(list.files(state$plot_dir, pattern = pattern, full.names = TRUE))) {
        bytes <- readBin(file, "raw", n = file.size(file))
        unlink(file)
        if (length(bytes) == 0L) next
        page <- as.integer(sub("^.*-([0-9]+)\\.png$", "\\1", file))
        output <- list(output_type = "display_data", data = list("image/png" = base64(bytes), "text/plain" = "<plot>"), metadata = EMPTY)
        if (page <= length(plot$seqs) && !is.na(plot$seqs[[page]])) emit(output, plot$seqs[[page]]) else emit(output)
      }
    }
  }

  # --- display() -----------------------------------------------------------------------------------

  # The image type of bytes (PNG, JPEG, GIF, WebP or SVG), or NULL.
  sniff_image <- function(bytes) {
    starts <- function(signature) length(bytes) >= length(signature) && all(bytes[seq_along(signature)] == as.raw(signature))
    if (starts(c(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))) return("image/png")
    if (starts(c(0xff, 0xd8, 0xff))) return("image/jpeg")
    if (starts(c(0x47, 0x49, 0x46, 0x38))) return("image/gif")
    if (starts(c(0x52, 0x49, 0x46, 0x46)) && length(bytes) >= 12L && all(bytes[9:12] == charToRaw("WEBP"))) return("image/webp")
    if (length(grepRaw("<svg", bytes[seq_len(min(length(bytes), 1024L))], fixed = TRUE)) > 0L) return("image/svg+xml")
    NULL
  }

  read_bytes <- function(path) readBin(path, "raw", n = file.size(path))

  is_file_path <- function(x) is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x) && nchar(x) < 4096L && isTRUE(file.exists(x)) && !isTRUE(dir.exists(x))

  image_bundle <- function(bytes, mime) {
    payload <- if (mime == "image/svg+xml") valid_utf8(rawToChar(bytes[bytes != as.raw(0L)])) else base64(bytes)
    out <- list(payload, sprintf("<%s, %d bytes>", mime, length(bytes)))
    names(out) <- c(mime, "text/plain")
    out
  }

  printed <- function(value) paste(valid_utf8(utils::capture.output(show_value(value))), collapse = "\n")

  # Rich views of the runner's own classes (HTML(), Markdown()); NULL for anything else.
  own_bundle <- function(value) {
    if (inherits(value, "oi_html")) return(list("text/html" = as.character(unclass(value)), "text/plain" = as.character(unclass(value))))
    if (inherits(value, "oi_markdown")) return(list("text/markdown" = as.character(unclass(value)), "text/plain" = as.character(unclass(value))))
    NULL
  }

  # display(x): an image file (PNG, JPEG, GIF, WebP, SVG) or raw image bytes as the picture,
  # HTML("...") / Markdown("...") rendered, a single string as its text, anything else as print()
  # shows it. display(x, mime = "text/html") sends text (or a file's bytes, for image types) as that type.
  display_bundle <- function(x, mime) {
    if (!is.null(mime)) {
      if (startsWith(mime, "image/") && mime != "image/svg+xml" || mime == "application/pdf") {
        bytes <- if (is.raw(x)) x else if (is_file_path(x)) read_bytes(x) else stop("display(): give raw bytes or a file path for ", mime, call. = FALSE)
        return(image_bundle(bytes, mime))
      }
      text <- if (is_file_path(x)) paste(readLines(x, warn = FALSE, encoding = "UTF-8"), collapse = "\n") else paste(as.character(x), collapse = "\n")
      out <- list(valid_utf8(text), valid_utf8(text))
      names(out) <- c(mime, "text/plain")
      return(out)
    }
    own <- own_bundle(x)
    if (!is.null(own)) return(own)
    if (is.raw(x)) {
      found <- sniff_image(x)
      if (!is.null(found)) return(image_bundle(x, found))
    }
    if (is_file_path(x)) {
      bytes <- read_bytes(x)
      found <- sniff_image(bytes)
      if (!is.null(found)) return(image_bundle(bytes, found))
    }
    if (is.character(x) && length(x) == 1L && !is.na(x)) return(list("text/plain" = valid_utf8(x)))
    list("text/plain" = printed(x))
  }

  # What the user's code sees, on the search path (so ls() stays the user's own).
  helpers <- new.env(parent = globalenv())
  helpers$display <- function(x, mime = NULL) {
    data <- display_bundle(x, mime) # before emit: an error here is the cell's, not the channel's
    emit(list(output_type = "display_data", data = data, metadata = EMPTY))
    invisible(NULL)
  }
  helpers$HTML <- function(source) structure(paste(as.character(source), collapse = "\n"), class = "oi_html")
  helpers$Markdown <- function(source) structure(paste(as.character(source), collapse = "\n"), class = "oi_markdown")
  helpers$print.oi_html <- function(x, ...) { cat(unclass(x), "\n", sep = ""); invisible(x) }
  helpers$print.oi_markdown <- helpers$print.oi_html
  # readline() (which a non-interactive R answers with "" at once) and readLines() of stdin ask the
  # person, as in the R console; end-of-input is "" for readline() and the lines so far for readLines().
  helpers$readline <- function(prompt = "") {
    answer <- ask_input(paste(as.character(prompt), collapse = ""))
    if (is.null(answer)) "" else answer
  }
  helpers$readLines <- function(con = stdin(), n = -1L, ok = TRUE, warn = TRUE, encoding = "unknown", skipNul = FALSE) {
    if (!reads_stdin(con)) return(base::readLines(con, n = n, ok = ok, warn = warn, encoding = encoding, skipNul = skipNul))
    lines <- character(0)
    while (n < 0L || length(lines) < n) {
      answer <- ask_input("")
      if (is.null(answer)) break
      lines <- c(lines, answer)
    }
    lines
  }

  # `files` comes from oi_files.R beside this script, which Rscript names as --file= (each space
  # written as ~+~). Its code gets an environment over base R, out of reach of the user's objects.
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  files_code <- new.env(parent = baseenv())
  sys.source(file.path(dirname(gsub("~+~", " ", script[length(script)], fixed = TRUE)), "oi_files.R"), envir = files_code, keep.source = FALSE)
  # Registered: since R 3.6 S3 lookup from the global environment skips attached environments.
  registerS3method("print", "oi_files", files_code$print.oi_files, envir = baseenv())
  registerS3method("print", "oi_html", helpers$print.oi_html, envir = baseenv())
  registerS3method("print", "oi_markdown", helpers$print.oi_markdown, envir = baseenv())

  # --- one run ----------------------------------------------------------------------------------------

  show_value <- function(value) if (isS4(value)) methods::show(value) else print(value)

  # The user's part of the call stack when a condition was signalled: without the runner's frames
  # below the cell and the condition machinery above it.
  user_calls <- function() {
    calls <- sys.calls()
    first <- state$eval_depth + 3L # evaluate(), withVisible(), eval()
    keep <- if (length(calls) > first) calls[(first + 1L):length(calls)] else list()
    keep <- keep[-length(keep)] # this handler
    # stop(condition) calls the handler below as (<the function itself>)(condition): no name to match.
    if (length(keep) > 0L && is.function(keep[[length(keep)]][[1L]])) keep <- keep[-length(keep)]
    while (length(keep) > 0L) {
      name <- call_name(keep[[length(keep)]])
      if (!name %in% c(".handleSimpleError", "h", "withCallingHandlers", "signalCondition", ".signalSimpleWarning")) break
      keep <- keep[-length(keep)]
    }
    keep
  }

  call_name <- function(call) {
    head <- call[[1L]]
    if (is.name(head)) as.character(head) else paste(deparse(head, nlines = 1L), collapse = "")
  }

  deparse_call <- function(call) paste(deparse(call, width.cutoff = 80L, nlines = 1L), collapse = "")

  # Text for stderr, wrapped in the run's stream markers (docs/exec-protocol.md#stderr): R writes
  # stdout and stderr to the one terminal in order, and main still tells them apart. Not under a
  # sink(), whose file would get the markers.
  to_stderr <- function(...) {
    text <- paste0(..., collapse = "")
    if (is.null(state$nonce) || sink.number(type = "message") != 2L) return(cat(text, file = stderr()))
    cat(sprintf("\033]633;P;OiStream=%s:stderr\a", state$nonce), text, sprintf("\033]633;P;OiStream=%s:stdout\a", state$nonce), sep = "", file = stderr())
  }

  on_warning <- function(w) {
    call <- conditionCall(w)
    where <- if (is.null(call)) "Warning: " else paste0("Warning in ", deparse_call(call), " : ")
    to_stderr(where, conditionMessage(w), "\n")
    invokeRestart("muffleWarning")
  }

  # message() goes to stderr as R would print it, marked as stderr.
  on_message <- function(m) {
    to_stderr(conditionMessage(m))
    invokeRestart("muffleMessage")
  }

  error_output <- function(e, calls) {
    message <- valid_utf8(conditionMessage(e))
    call <- conditionCall(e)
    head <- if (is.null(call)) paste0("Error: ", message) else paste0("Error in ", deparse_call(call), " : ", message)
    traceback <- head
    if (length(calls) > 0L) traceback <- c(traceback, paste0("Calls: ", paste(vapply(calls, call_name, ""), collapse = " -> ")))
    list(output_type = "error", ename = class(e)[1L], evalue = message, traceback = as.list(traceback))
  }

  evaluate <- function(expression) {
    state$eval_depth <- sys.nframe()
    withVisible(eval(expression, envir = globalenv()))
  }

  run_cell <- function(message) {
    code <- if (is.null(message$code)) "" else message$code
    state$calls <- NULL
    ok <- TRUE
    tryCatch(allowInterrupts({
      expressions <- parse(text = code, keep.source = FALSE, encoding = "UTF-8")
      n <- length(expressions)
      for (i in seq_len(n)) {
        withCallingHandlers({
          result <- evaluate(expressions[[i]])
          if (result$visible && i < n) show_value(result$value)
          if (result$visible && i == n) {
            data <- own_bundle(result$value)
            if (is.null(data)) {
              text <- utils::capture.output(show_value(result$value))
              if (length(text) > 0L) data <- list("text/plain" = paste(valid_utf8(text), collapse = "\n"))
            }
            if (!is.null(data)) emit(list(output_type = "execute_result", execution_count = state$count, data = data, metadata = EMPTY))
          }
        }, warning = on_warning, message = on_message, error = function(e) state$calls <- user_calls())
      }
    }), error = function(e) {
      ok <<- FALSE
      emit(error_output(e, if (is.null(state$calls)) list() else state$calls))
    }, interrupt = function(e) {
      ok <<- FALSE
      emit(list(output_type = "error", ename = "interrupt", evalue = "interrupted (SIGINT)", traceback = list("Interrupted (SIGINT)")))
    })
    state$calls <- NULL
    ok
  }

  finish <- function(message, ok) {
    tryCatch(send_plots(), error = function(e) NULL)
    state$nonce <- NULL
    flush_streams()
    if (sink.number() > 0L) {
      # A sink() the cell left open (it may be closed in a later cell) would swallow the fence and
      # leave the run waiting for it. R cannot write past its own sinks, but a child process writes
      # to the terminal it inherited; the nonce is hex, safe in a shell word.
      system2("printf", c(shQuote("\\033]633;P;OiFence=%s\\007"), message$nonce))
    } else {
      cat(sprintf("\033]633;P;OiFence=%s\a", message$nonce))
    }
    flush_streams()
    cwd <- tryCatch(getwd(), error = function(e) NULL)
    send(list(type = "done", id = state$run_id, ok = ok, cwd = cwd))
  }

  # Interrupts are suspended (held pending) everywhere but inside a cell, so a Ctrl-C can never
  # unwind the runner's own bookkeeping and end the session.
  serve <- function() suspendInterrupts({
    repeat {
      message <- receive()
      if (is.null(message) || identical(message$type, "shutdown")) break
      # main's barrier at a run's end: answered after everything sent before it
      if (identical(message$type, "sync")) {
        send(list(type = "synced", token = as.character(message$token)))
        next
      }
      if (!identical(message$type, "run")) next
      state$run_id <- as.character(message$id)
      state$count <- message$executionCount
      state$nonce <- as.character(message$nonce)
      state$seq <- 0L
      state$input_seq <- 0L
      # A pending interrupt is not this cell's (see the top): let it fire here (Sys.sleep checks
      # for one) and drop it.
      tryCatch(allowInterrupts(Sys.sleep(0)), interrupt = function(e) NULL)
      ok <- run_cell(message)
      finish(message, ok)
    }
    flush_streams()
    quit(save = "no", status = 0L, runLast = FALSE)
  })

  workspace <- Sys.getenv("OI_WORKSPACE")
  if (nzchar(workspace) && dir.exists(workspace)) setwd(workspace) else workspace <- getwd()
  helpers$files <- files_code$oi_files(workspace)
  dir.create(state$plot_dir, showWarnings = FALSE, mode = "0700")
  options(device = open_plot, warn = 1L)
  setHook("before.plot.new", before_plot_new)
  setHook("plot.new", function() page_started())
  setHook("grid.newpage", function() page_started(TRUE))
  attach(helpers, name = "oi:helpers", warn.conflicts = FALSE)
  version <- paste(R.version$major, R.version$minor, sep = ".")
  send(list(type = "hello", language = "r", version = version, pid = Sys.getpid(), protocol = 2L))
  serve()
})

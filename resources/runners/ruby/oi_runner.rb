# frozen_string_literal: true

# Open Interpreter's Ruby session: runs cells like a notebook in one persistent top-level binding.
#
# Protocol (side channel + terminal fence): docs/exec-protocol.md. Standard library only (socket,
# json, fileutils), Ruby 2.7+. The terminal (fd 0/1/2, a pty) carries only what user code prints;
# results, rich outputs, errors and the end of each run travel on the OI_CHANNEL socket. Helpers
# live beside this file: oi_streams.rb (batched stdout/stderr), oi_display.rb (display() and rich
# results), oi_files.rb (the `files` helper).
#
# Choices, as a user of the session sees them:
# - Every cell is evaluated in TOPLEVEL_BINDING, as irb does: local variables, methods (`def` at the
#   top level), constants and `require`s carry over to later cells.
# - The value of the cell's last expression is shown as an execute_result, like irb's `=> value`:
#   its `inspect`, or the richer views it offers (`to_mimebundle`, image bytes), except that nil is
#   not shown (it is what most statements return) and a cell whose last line ends with `;` shows
#   nothing. `_` holds the last shown value, as in irb.
# - display(obj), HTML(), Markdown(), Image() and `files` are methods of the top-level object, as
#   `display` and `files` are globals in the Python and Node sessions.
# - $stdout and $stderr (and STDOUT/STDERR) are batched like the Python runner's: text is sent
#   ≈20 ms after it is written, before any rich output, before a subprocess starts, and at the end
#   of the cell, in the order written (oi_streams.rb).
# - Ctrl-C (SIGINT) raises Interrupt in the running cell; the cell fails with an `Interrupt` error
#   and the session lives on. SIGINT while no cell runs is ignored.
# - `exit`/`exit 0` ends the cell quietly; `exit!` ends the session (reported by main as died).
# - The runner is started in OI_WORKSPACE, which is the cells' working directory.

require 'json'
require 'monitor'
require 'socket'
require_relative 'oi_streams'
require_relative 'oi_display'
require_relative 'oi_files'
require_relative 'oi_input'

module OiRunner
  HERE = File.expand_path(__FILE__)
  # Frames in the runner's own files are left out of tracebacks, the helpers' included.
  RUNNER_DIR = "#{File.dirname(HERE)}/"

  # Newline-delimited JSON over the socket main created (a named pipe on Windows).
  class Channel
    def initialize(path)
      @io = if Gem.win_platform?
              File.open(path, 'r+b')
            else
              UNIXSocket.new(path)
            end
      @io.binmode
      @io.sync = true
      @lock = Mutex.new
    end

    def send_message(message)
      line = JSON.generate(scrub(message))
      @lock.synchronize { @io.write(line, "\n") }
    rescue SystemCallError, IOError
      exit!(0) # main is gone; nobody is left to run cells for
    end

    def receive
      loop do
        line = @io.gets
        return nil if line.nil?

        message = begin
          JSON.parse(line.force_encoding(Encoding::UTF_8))
        rescue JSON::ParserError
          next
        end
        return message if message.is_a?(Hash)
      end
    end

    private

    # Exception messages and inspect output may hold invalid or non-UTF-8 bytes; JSON would refuse them.
    def scrub(value)
      case value
      when String then value.encode(Encoding::UTF_8, invalid: :replace, undef: :replace).scrub
      when Hash then value.to_h { |k, v| [k.to_s, scrub(v)] }
      when Array then value.map { |v| scrub(v) }
      else value
      end
    end
  end

  class Session
    def initialize(channel)
      @channel = channel
      @running = false
      # fd 1 as it was at start: a cell may reassign or close $stdout, the fence must still go out.
      @fence_out = IO.for_fd(1, mode: 'wb', autoclose: false)
      @fence_out.sync = true
      # The run's nonce while a cell runs (nil between runs) and the next output's number; a
      # Monitor because display() may be called from an output's own to_mimebundle.
      @nonce = nil
      @seq = 0
      @input_seq = 0
      @emit_lock = Monitor.new
      @sigint = proc do
        # Trap handlers run on the main thread, so this raises inside the running cell.
        raise Interrupt if @running
      end
    end

    def install_sigint
      trap('INT', &@sigint)
    end

    # A forked child's outputs carry no marker (its numbers would collide with the parent's), and
    # it must not wait on a lock a thread that did not survive the fork held.
    def install_fork_hook
      return unless Process.respond_to?(:_fork)

      session = self
      Process.singleton_class.prepend(Module.new do
        define_method(:_fork) do
          pid = super()
          session.forked_child if pid.zero?
          pid
        end
      end)
    end

    def forked_child
      @emit_lock = Monitor.new
      @nonce = nil
    end

    def serve
      loop do
        message = @channel.receive
        break if message.nil? || message['type'] == 'shutdown'
        if message['type'] == 'sync' # main's barrier at a run's end: answered after all sent before
          @channel.send_message({ 'type' => 'synced', 'token' => message['token'].to_s })
          next
        end
        next unless message['type'] == 'run'

        begin
          run(message)
        rescue Interrupt
          # Ctrl-C landed between the cell and the runner's bookkeeping.
          @running = false
          finish(message, false)
        end
      end
      flush_streams
      exit!(0) # not exit: threads a cell left running must not keep the session alive
    end

    # Public: display() calls it, from the cell or from a thread the cell started. The batched
    # streams are flushed, then a position marker goes to the terminal and the output, numbered
    # like its marker, to main, which puts it exactly between the text before and after it.
    def emit(output)
      @emit_lock.synchronize do
        message = { 'type' => 'output', 'id' => @run_id, 'output' => output }
        flush_streams
        if @nonce
          message['seq'] = @seq
          @seq += 1
          write_fence("\e]633;P;OiOutput=#{@nonce}:#{message['seq']}\a")
        end
        @channel.send_message(message)
      end
    end

    # Public: $stdin's reads call it (oi_input.rb). A marker where the question stands in the
    # output, then the request to main; waits for the reply (docs/exec-protocol.md#input). nil means
    # end-of-input, also between runs (a thread a cell left behind), when nobody is asked.
    def ask_input(prompt, password)
      seq = nil
      @emit_lock.synchronize do
        return nil unless @nonce

        seq = @input_seq
        @input_seq += 1
        flush_streams
        write_fence("#{prompt}\e]633;P;OiInput=#{@nonce}:#{seq}\a")
        @channel.send_message({ 'type' => 'input_request', 'id' => @run_id, 'seq' => seq, 'prompt' => prompt, 'password' => password })
      end
      reply = loop do # a Ctrl-C here raises Interrupt in the cell, as at a terminal
        message = @channel.receive
        if message.nil? || message['type'] == 'shutdown'
          flush_streams
          exit!(0)
        end
        break message if message['type'] == 'input_reply' && message['seq'] == seq
      end
      reply['eof'] ? nil : reply['value'].to_s
    end

    private

    def run(message)
      @emit_lock.synchronize do
        @run_id = message['id'].to_s
        @nonce = message['nonce'].to_s
        @seq = 0
        @input_seq = 0
        OiStreams.mark_stderr(@nonce)
      end
      count = message['executionCount']
      code = message['code'].to_s.dup.force_encoding(Encoding::UTF_8)
      ok = true
      begin
        @running = true
        value = TOPLEVEL_BINDING.eval(code, "(cell #{count || '?'})", 1)
        shown = !value.nil? && !silenced?(code)
        result = OiDisplay.result_output(value, count) if shown
        @running = false
        if shown
          TOPLEVEL_BINDING.local_variable_set(:_, value)
          emit(result)
        end
      rescue SystemExit => e
        @running = false
        unless e.success?
          ok = false
          emit(error_output(e))
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- a cell's failure, whatever it is, fails only the cell
        @running = false
        ok = false
        emit(error_output(e))
      ensure
        @running = false
      end
      install_sigint # a cell may have trapped INT itself; interrupt must keep working
      finish(message, ok)
    end

    def finish(message, ok)
      cwd = begin
        Dir.pwd
      rescue SystemCallError
        nil # the cell deleted its working directory
      end
      # Under the lock: a thread's output goes wholly before the fence and `done`, or after them
      # without a marker (main drops it with its finished run).
      @emit_lock.synchronize do
        @nonce = nil
        OiStreams.mark_stderr(nil)
        flush_streams
        write_fence("\e]633;P;OiFence=#{message['nonce']}\a")
        @channel.send_message({ 'type' => 'done', 'id' => @run_id, 'ok' => ok, 'cwd' => cwd })
      end
    end

    def flush_streams
      OiStreams.flush
    end

    def write_fence(text)
      @fence_out.write(text)
    rescue SystemCallError, IOError
      nil # the terminal is gone; the pty's exit tells main
    end

    # irb-style: a trailing `;` on the last line hides the value.
    def silenced?(code)
      last = code.lines.map(&:strip).reject(&:empty?).last
      !last.nil? && last.end_with?(';')
    end

    def error_output(error)
      ename = error.class.name || error.class.inspect
      evalue = begin
        error.message.to_s
      rescue StandardError
        '<exception message failed>'
      end
      evalue = "exit status #{error.status}" if error.is_a?(SystemExit)
      { 'output_type' => 'error', 'ename' => ename, 'evalue' => evalue, 'traceback' => traceback(error, ename, evalue) }
    end

    # Ruby's own layout (`where: message (Class)` then `from …` lines), without the runner's frames.
    def traceback(error, ename, evalue)
      frames = user_frames(error)
      head = frames.empty? ? "#{evalue} (#{ename})" : "#{frames.first}: #{evalue} (#{ename})"
      lines = [head] + frames.drop(1).map { |f| "\tfrom #{f}" }
      cause = error.cause
      depth = 0
      while cause && depth < 5
        cause_frames = user_frames(cause)
        lines << "Caused by: #{cause.message} (#{cause.class})"
        lines.concat(cause_frames.map { |f| "\tfrom #{f}" })
        cause = cause.cause
        depth += 1
      end
      lines
    end

    def user_frames(error)
      (error.backtrace || []).reject { |frame| frame.start_with?(RUNNER_DIR) }
    end
  end

  def self.main
    channel = Channel.new(ENV.delete('OI_CHANNEL')) # deleted: subprocesses have no use for it
    workspace = ENV['OI_WORKSPACE']
    workspace = Dir.pwd unless workspace && !workspace.empty? && File.directory?(workspace)
    Dir.chdir(workspace)
    OiStreams.install
    ARGV.clear
    session = Session.new(channel)
    session.install_sigint
    session.install_fork_hook
    OiDisplay.emitter = session.method(:emit)
    OiInput.install(session.method(:ask_input), ->(text) { $stdout.write(text) })
    files = OiFiles::Files.new(workspace)
    main = TOPLEVEL_BINDING.receiver
    main.extend(OiDisplay::Helpers)
    main.define_singleton_method(:files) { files }
    channel.send_message({ 'type' => 'hello', 'language' => 'ruby', 'version' => RUBY_VERSION, 'pid' => Process.pid, 'protocol' => 2 })
    session.serve
  end
end

OiRunner.main

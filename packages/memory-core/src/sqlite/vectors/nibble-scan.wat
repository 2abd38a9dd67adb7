;; The vector pre-filter's scan in WebAssembly SIMD (nibble-scan.ts builds the tables and the
;; layout; nibble-scan-module.ts holds these instructions assembled, and a test assembles this
;; file again and compares).
;;
;; Codes are kept in blocks of 32: for each 4-bit group of a code ("position", two per byte), one
;; 16-byte vector whose byte i holds code i's group in its low half and code i+16's in its high
;; half. The query gives a 16-entry table of small integers per position. For each block, every
;; position costs two i8x16.swizzle (16 table lookups each), and the sums of each code's lookups
;; are kept in 16-bit lanes: a sum never exceeds 65535, as nibble-scan.ts caps the table entries.
(module
  (import "env" "memory" (memory 1))
  ;; $blocks: the first block's address; $count: blocks to scan; $positions: 4-bit groups per
  ;; code; $tables: 16 bytes per position; $out: 32 sums (u16) per block, in code order.
  (func (export "scan")
    (param $blocks i32) (param $count i32) (param $positions i32) (param $tables i32) (param $out i32)
    (local $block i32) (local $at i32) (local $table i32) (local $end i32)
    (local $groups v128) (local $table16 v128) (local $low v128) (local $high v128)
    (local $sum0 v128) (local $sum1 v128) (local $sum2 v128) (local $sum3 v128)
    (local.set $at (local.get $blocks))
    (block $done
      (loop $each_block
        (br_if $done (i32.ge_u (local.get $block) (local.get $count)))
        (local.set $sum0 (v128.const i32x4 0 0 0 0))
        (local.set $sum1 (v128.const i32x4 0 0 0 0))
        (local.set $sum2 (v128.const i32x4 0 0 0 0))
        (local.set $sum3 (v128.const i32x4 0 0 0 0))
        (local.set $table (local.get $tables))
        (local.set $end (i32.add (local.get $at) (i32.shl (local.get $positions) (i32.const 4))))
        (loop $each_position
          (local.set $groups (v128.load (local.get $at)))
          (local.set $table16 (v128.load (local.get $table)))
          ;; Codes 0-15 from the low halves, codes 16-31 from the high halves.
          (local.set $low
            (i8x16.swizzle (local.get $table16)
              (v128.and (local.get $groups) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))))
          (local.set $high (i8x16.swizzle (local.get $table16) (i8x16.shr_u (local.get $groups) (i32.const 4))))
          (local.set $sum0 (i16x8.add (local.get $sum0) (i16x8.extend_low_i8x16_u (local.get $low))))
          (local.set $sum1 (i16x8.add (local.get $sum1) (i16x8.extend_high_i8x16_u (local.get $low))))
          (local.set $sum2 (i16x8.add (local.get $sum2) (i16x8.extend_low_i8x16_u (local.get $high))))
          (local.set $sum3 (i16x8.add (local.get $sum3) (i16x8.extend_high_i8x16_u (local.get $high))))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (local.set $table (i32.add (local.get $table) (i32.const 16)))
          (br_if $each_position (i32.lt_u (local.get $at) (local.get $end))))
        (v128.store offset=0 (local.get $out) (local.get $sum0))
        (v128.store offset=16 (local.get $out) (local.get $sum1))
        (v128.store offset=32 (local.get $out) (local.get $sum2))
        (v128.store offset=48 (local.get $out) (local.get $sum3))
        (local.set $out (i32.add (local.get $out) (i32.const 64)))
        (local.set $block (i32.add (local.get $block) (i32.const 1)))
        (br $each_block))))
)

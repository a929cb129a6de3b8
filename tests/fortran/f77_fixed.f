C     f77_fixed: fixed-form FORTRAN 77 style source with
C     INCLUDE 'mpif.h' (72 columns).  Proves that mpif.h works in
C     fixed form, and the attribute basics through it:
C     - an MPI-1 keyval (MPI_KEYVAL_CREATE, user copy and delete
C       subroutines, INTEGER extra state) and address-kind keyvals
C       (MPI_COMM_CREATE_KEYVAL);
C     - MPI_ATTR_PUT/MPI_ATTR_GET and MPI_COMM_SET_ATTR/
C       MPI_COMM_GET_ATTR, each reading the other's values (the
C       INTEGER view of 2**40+5 is its low bit_size(0) bits);
C     - MPI_COMM_DUP runs the copy callbacks in set order, with the
C       source handle, the value as each convention reads it and
C       the extra state; MPI_ATTR_DELETE runs one delete callback;
C       MPI_COMM_FREE runs the delete callbacks newest first;
C     - MPI_KEYVAL_FREE and MPI_COMM_FREE_KEYVAL set the keyval to
C       MPI_KEYVAL_INVALID;
C     - MPI_COMM_DUP_FN and MPI_DUP_FN given as delete callbacks are
C       refused with MPI_ERR_ARG.
      PROGRAM F77FIX
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      EXTERNAL CPY1, DEL1, CPYA, DELA
      INTEGER LOWBIT
      EXTERNAL LOWBIT
      INTEGER NFAIL
      COMMON /F77CNT/ NFAIL
      INTEGER NLOG, LOGOP(40), LOGKV(40), LOGOBJ(40)
      COMMON /F77LOG/ NLOG, LOGOP, LOGKV, LOGOBJ
      INTEGER(KIND=MPI_ADDRESS_KIND) LOGVAL(40), LOGEXT(40)
      COMMON /F77LGV/ LOGVAL, LOGEXT
      INTEGER IERR, KV1, KV2, KV3, EXTRA1, COMM1, COMM2, SAVED
      INTEGER IVAL, MARK
      INTEGER(KIND=MPI_ADDRESS_KIND) EXTRA2, EXTRA3, AVAL, BIG
      LOGICAL FLAG

      NFAIL = 0
      NLOG = 0
      BIG = 2_MPI_ADDRESS_KIND**40 + 5
      CALL MPI_INIT(IERR)
      CALL CHKOK('MPI_INIT', IERR)
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &                             IERR)
      CALL CHKOK('MPI_COMM_SET_ERRHANDLER', IERR)
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN,
     &                             IERR)
      CALL CHKOK('MPI_COMM_SET_ERRHANDLER', IERR)

C     Keyvals: KV1 MPI-1, KV2 and KV3 address kind.
      EXTRA1 = 11
      CALL MPI_KEYVAL_CREATE(CPY1, DEL1, KV1, EXTRA1, IERR)
      CALL CHKOK('MPI_KEYVAL_CREATE', IERR)
      EXTRA2 = 2_MPI_ADDRESS_KIND**36 + 22
      CALL MPI_COMM_CREATE_KEYVAL(CPYA, DELA, KV2, EXTRA2, IERR)
      CALL CHKOK('MPI_COMM_CREATE_KEYVAL', IERR)
      EXTRA3 = -33
      CALL MPI_COMM_CREATE_KEYVAL(CPYA, DELA, KV3, EXTRA3, IERR)
      CALL CHKOK('MPI_COMM_CREATE_KEYVAL', IERR)
      CALL CHKL('new keyvals differ from MPI_KEYVAL_INVALID', .TRUE.,
     &          KV1 .NE. MPI_KEYVAL_INVALID .AND.
     &          KV2 .NE. MPI_KEYVAL_INVALID .AND.
     &          KV3 .NE. MPI_KEYVAL_INVALID)
      CALL CHKL('three keyvals are distinct', .TRUE.,
     &          KV1 .NE. KV2 .AND. KV2 .NE. KV3 .AND. KV1 .NE. KV3)

C     MPI_COMM_DUP_FN or MPI_DUP_FN given as the delete callback is
C     refused with MPI_ERR_ARG, and no keyval is written.
      IVAL = -5
      CALL MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_DUP_FN,
     &                            IVAL, EXTRA2, IERR)
      CALL MPI_ERROR_CLASS(IERR, MARK, SAVED)
      CALL CHKI('MPI_COMM_DUP_FN as delete: class', MPI_ERR_ARG, MARK)
      CALL CHKI('MPI_COMM_DUP_FN as delete: keyval', -5, IVAL)
      CALL MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_DUP_FN, IVAL, EXTRA1,
     &                       IERR)
      CALL MPI_ERROR_CLASS(IERR, MARK, SAVED)
      CALL CHKI('MPI_DUP_FN as delete: class', MPI_ERR_ARG, MARK)
      CALL CHKI('MPI_DUP_FN as delete: keyval', -5, IVAL)

C     Set order KV2, KV1, KV3 (neither creation order nor its
C     reverse).
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, COMM1, IERR)
      CALL CHKOK('MPI_COMM_DUP', IERR)
      CALL MPI_COMM_SET_ATTR(COMM1, KV2, BIG, IERR)
      CALL CHKOK('MPI_COMM_SET_ATTR', IERR)
      CALL MPI_ATTR_PUT(COMM1, KV1, -7, IERR)
      CALL CHKOK('MPI_ATTR_PUT', IERR)
      CALL MPI_COMM_SET_ATTR(COMM1, KV3, 33_MPI_ADDRESS_KIND, IERR)
      CALL CHKOK('MPI_COMM_SET_ATTR', IERR)

C     Every value through both readers.
      AVAL = 0
      FLAG = .FALSE.
      CALL MPI_COMM_GET_ATTR(COMM1, KV2, AVAL, FLAG, IERR)
      CALL CHKOK('MPI_COMM_GET_ATTR', IERR)
      CALL CHKL('MPI_COMM_GET_ATTR flag', .TRUE., FLAG)
      CALL CHKA('MPI_COMM_GET_ATTR of MPI_COMM_SET_ATTR 2**40+5',
     &          BIG, AVAL)
      IVAL = 0
      FLAG = .FALSE.
      CALL MPI_ATTR_GET(COMM1, KV2, IVAL, FLAG, IERR)
      CALL CHKOK('MPI_ATTR_GET', IERR)
      CALL CHKL('MPI_ATTR_GET flag', .TRUE., FLAG)
      CALL CHKI('MPI_ATTR_GET of MPI_COMM_SET_ATTR 2**40+5 (low bits)',
     &          LOWBIT(BIG), IVAL)
      IVAL = 0
      FLAG = .FALSE.
      CALL MPI_ATTR_GET(COMM1, KV1, IVAL, FLAG, IERR)
      CALL CHKOK('MPI_ATTR_GET', IERR)
      CALL CHKL('MPI_ATTR_GET flag', .TRUE., FLAG)
      CALL CHKI('MPI_ATTR_GET of MPI_ATTR_PUT -7', -7, IVAL)
      AVAL = 0
      FLAG = .FALSE.
      CALL MPI_COMM_GET_ATTR(COMM1, KV1, AVAL, FLAG, IERR)
      CALL CHKOK('MPI_COMM_GET_ATTR', IERR)
      CALL CHKL('MPI_COMM_GET_ATTR flag', .TRUE., FLAG)
      CALL CHKA('MPI_COMM_GET_ATTR of MPI_ATTR_PUT -7 (sign-extended)',
     &          -7_MPI_ADDRESS_KIND, AVAL)
      IVAL = 0
      CALL MPI_ATTR_GET(COMM1, KV3, IVAL, FLAG, IERR)
      CALL CHKOK('MPI_ATTR_GET', IERR)
      CALL CHKI('MPI_ATTR_GET of MPI_COMM_SET_ATTR 33', 33, IVAL)

C     MPI_COMM_DUP: copy callbacks in set order, source handle.
      MARK = NLOG + 1
      CALL MPI_COMM_DUP(COMM1, COMM2, IERR)
      CALL CHKOK('MPI_COMM_DUP with copy callbacks', IERR)
      CALL CHKI('number of copy callbacks run by MPI_COMM_DUP', 3,
     &          NLOG - MARK + 1)
      CALL CHKLOG('MPI_COMM_DUP copy #1', MARK, 1, KV2, COMM1, BIG,
     &            EXTRA2)
      CALL CHKLOG('MPI_COMM_DUP copy #2', MARK + 1, 1, KV1, COMM1,
     &            -7_MPI_ADDRESS_KIND, 11_MPI_ADDRESS_KIND)
      CALL CHKLOG('MPI_COMM_DUP copy #3', MARK + 2, 1, KV3, COMM1,
     &            33_MPI_ADDRESS_KIND, EXTRA3)
C     CPYA gives in + 2000, CPY1 gives in + 1000.
      CALL MPI_COMM_GET_ATTR(COMM2, KV2, AVAL, FLAG, IERR)
      CALL CHKOK('MPI_COMM_GET_ATTR', IERR)
      CALL CHKL('copy of KV2 on the new comm', .TRUE., FLAG)
      CALL CHKA('copy of KV2 (2**40+5 + 2000)', BIG + 2000, AVAL)
      IVAL = 0
      CALL MPI_ATTR_GET(COMM2, KV1, IVAL, FLAG, IERR)
      CALL CHKOK('MPI_ATTR_GET', IERR)
      CALL CHKL('copy of KV1 on the new comm', .TRUE., FLAG)
      CALL CHKI('copy of KV1 (-7 + 1000)', 993, IVAL)
      CALL MPI_COMM_GET_ATTR(COMM2, KV1, AVAL, FLAG, IERR)
      CALL CHKOK('MPI_COMM_GET_ATTR', IERR)
      CALL CHKA('copy of KV1 through MPI_COMM_GET_ATTR',
     &          993_MPI_ADDRESS_KIND, AVAL)
      CALL MPI_COMM_GET_ATTR(COMM2, KV3, AVAL, FLAG, IERR)
      CALL CHKOK('MPI_COMM_GET_ATTR', IERR)
      CALL CHKL('copy of KV3 on the new comm', .TRUE., FLAG)
      CALL CHKA('copy of KV3 (33 + 2000)', 2033_MPI_ADDRESS_KIND,
     &          AVAL)

C     MPI_ATTR_DELETE: one delete callback, with the object's handle.
      MARK = NLOG + 1
      CALL MPI_ATTR_DELETE(COMM2, KV1, IERR)
      CALL CHKOK('MPI_ATTR_DELETE', IERR)
      CALL CHKI('number of delete callbacks run by MPI_ATTR_DELETE',
     &          1, NLOG - MARK + 1)
      CALL CHKLOG('MPI_ATTR_DELETE delete', MARK, 2, KV1, COMM2,
     &            993_MPI_ADDRESS_KIND, 11_MPI_ADDRESS_KIND)
      FLAG = .TRUE.
      CALL MPI_ATTR_GET(COMM2, KV1, IVAL, FLAG, IERR)
      CALL CHKOK('MPI_ATTR_GET', IERR)
      CALL CHKL('attribute after MPI_ATTR_DELETE', .FALSE., FLAG)

C     MPI_COMM_FREE: newest first.
      SAVED = COMM2
      MARK = NLOG + 1
      CALL MPI_COMM_FREE(COMM2, IERR)
      CALL CHKOK('MPI_COMM_FREE', IERR)
      CALL CHKI('MPI_COMM_FREE sets MPI_COMM_NULL', MPI_COMM_NULL,
     &          COMM2)
      CALL CHKI('number of delete callbacks run by MPI_COMM_FREE',
     &          2, NLOG - MARK + 1)
      CALL CHKLOG('MPI_COMM_FREE of the dup delete #1', MARK, 2, KV3,
     &            SAVED, 2033_MPI_ADDRESS_KIND, EXTRA3)
      CALL CHKLOG('MPI_COMM_FREE of the dup delete #2', MARK + 1, 2,
     &            KV2, SAVED, BIG + 2000, EXTRA2)
      SAVED = COMM1
      MARK = NLOG + 1
      CALL MPI_COMM_FREE(COMM1, IERR)
      CALL CHKOK('MPI_COMM_FREE', IERR)
      CALL CHKI('number of delete callbacks run by MPI_COMM_FREE',
     &          3, NLOG - MARK + 1)
      CALL CHKLOG('MPI_COMM_FREE delete #1', MARK, 2, KV3, SAVED,
     &            33_MPI_ADDRESS_KIND, EXTRA3)
      CALL CHKLOG('MPI_COMM_FREE delete #2', MARK + 1, 2, KV1, SAVED,
     &            -7_MPI_ADDRESS_KIND, 11_MPI_ADDRESS_KIND)
      CALL CHKLOG('MPI_COMM_FREE delete #3', MARK + 2, 2, KV2, SAVED,
     &            BIG, EXTRA2)

C     Keyvals go.
      CALL MPI_KEYVAL_FREE(KV1, IERR)
      CALL CHKOK('MPI_KEYVAL_FREE', IERR)
      CALL CHKI('MPI_KEYVAL_FREE sets MPI_KEYVAL_INVALID',
     &          MPI_KEYVAL_INVALID, KV1)
      CALL MPI_COMM_FREE_KEYVAL(KV2, IERR)
      CALL CHKOK('MPI_COMM_FREE_KEYVAL', IERR)
      CALL CHKI('MPI_COMM_FREE_KEYVAL sets MPI_KEYVAL_INVALID',
     &          MPI_KEYVAL_INVALID, KV2)
      CALL MPI_COMM_FREE_KEYVAL(KV3, IERR)
      CALL CHKOK('MPI_COMM_FREE_KEYVAL', IERR)

      CALL MPI_FINALIZE(IERR)
      CALL CHKOK('MPI_FINALIZE', IERR)
      IF (NFAIL .EQ. 0) THEN
         WRITE (*, '(A)') 'OK f77_fixed'
      ELSE
         WRITE (*, '(A,I0,A)') 'f77_fixed: ', NFAIL,
     &                         ' check(s) failed'
         STOP 1
      END IF
      END

C     MPI-1 copy callback: INTEGER everything; out = in + 1000.
      SUBROUTINE CPY1(OLDCOM, KEYVAL, EXTRA, VALIN, VALOUT, FLAG,
     &                IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER OLDCOM, KEYVAL, EXTRA, VALIN, VALOUT, IERR
      LOGICAL FLAG
      CALL LOGIT(1, KEYVAL, OLDCOM, INT(VALIN, MPI_ADDRESS_KIND),
     &           INT(EXTRA, MPI_ADDRESS_KIND))
      VALOUT = VALIN + 1000
      FLAG = .TRUE.
      IERR = MPI_SUCCESS
      END

C     MPI-1 delete callback.
      SUBROUTINE DEL1(COMM, KEYVAL, VAL, EXTRA, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER COMM, KEYVAL, VAL, EXTRA, IERR
      CALL LOGIT(2, KEYVAL, COMM, INT(VAL, MPI_ADDRESS_KIND),
     &           INT(EXTRA, MPI_ADDRESS_KIND))
      IERR = MPI_SUCCESS
      END

C     Address-kind copy callback: out = in + 2000.
      SUBROUTINE CPYA(OLDCOM, KEYVAL, EXTRA, VALIN, VALOUT, FLAG,
     &                IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER OLDCOM, KEYVAL, IERR
      INTEGER(KIND=MPI_ADDRESS_KIND) EXTRA, VALIN, VALOUT
      LOGICAL FLAG
      CALL LOGIT(1, KEYVAL, OLDCOM, VALIN, EXTRA)
      VALOUT = VALIN + 2000
      FLAG = .TRUE.
      IERR = MPI_SUCCESS
      END

C     Address-kind delete callback.
      SUBROUTINE DELA(COMM, KEYVAL, VAL, EXTRA, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER COMM, KEYVAL, IERR
      INTEGER(KIND=MPI_ADDRESS_KIND) VAL, EXTRA
      CALL LOGIT(2, KEYVAL, COMM, VAL, EXTRA)
      IERR = MPI_SUCCESS
      END

C     Appends one callback (1 copy, 2 delete) to the log.
      SUBROUTINE LOGIT(OP, KEYVAL, OBJ, VAL, EXTRA)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER OP, KEYVAL, OBJ
      INTEGER(KIND=MPI_ADDRESS_KIND) VAL, EXTRA
      INTEGER NLOG, LOGOP(40), LOGKV(40), LOGOBJ(40)
      COMMON /F77LOG/ NLOG, LOGOP, LOGKV, LOGOBJ
      INTEGER(KIND=MPI_ADDRESS_KIND) LOGVAL(40), LOGEXT(40)
      COMMON /F77LGV/ LOGVAL, LOGEXT
      IF (NLOG .GE. 40) THEN
         WRITE (*, '(A)') 'f77_fixed: FAIL: too many callbacks'
         STOP 1
      END IF
      NLOG = NLOG + 1
      LOGOP(NLOG) = OP
      LOGKV(NLOG) = KEYVAL
      LOGOBJ(NLOG) = OBJ
      LOGVAL(NLOG) = VAL
      LOGEXT(NLOG) = EXTRA
      END

C     Log entry I is callback OP (1 copy, 2 delete) for keyval KV on
C     handle OBJ with value VAL and extra state EXTRA.
      SUBROUTINE CHKLOG(WHAT, I, OP, KV, OBJ, VAL, EXTRA)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*(*) WHAT
      INTEGER I, OP, KV, OBJ
      INTEGER(KIND=MPI_ADDRESS_KIND) VAL, EXTRA
      INTEGER NLOG, LOGOP(40), LOGKV(40), LOGOBJ(40)
      COMMON /F77LOG/ NLOG, LOGOP, LOGKV, LOGOBJ
      INTEGER(KIND=MPI_ADDRESS_KIND) LOGVAL(40), LOGEXT(40)
      COMMON /F77LGV/ LOGVAL, LOGEXT
      IF (I .GT. NLOG) THEN
         CALL CHKI(WHAT // ': callbacks run', I, NLOG)
         RETURN
      END IF
      CALL CHKI(WHAT // ': copy (1) or delete (2)', OP, LOGOP(I))
      CALL CHKI(WHAT // ': keyval', KV, LOGKV(I))
      CALL CHKI(WHAT // ': handle', OBJ, LOGOBJ(I))
      CALL CHKA(WHAT // ': attribute value', VAL, LOGVAL(I))
      CALL CHKA(WHAT // ': extra state', EXTRA, LOGEXT(I))
      END

C     The INTEGER view of an address-kind word: its low bit_size(0)
C     bits, as a signed INTEGER.
      INTEGER FUNCTION LOWBIT(V)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER(KIND=MPI_ADDRESS_KIND) V, M
      M = IBITS(V, 0, BIT_SIZE(0) - 1)
      IF (BTEST(V, BIT_SIZE(0) - 1)) THEN
         LOWBIT = INT(M) - HUGE(0) - 1
      ELSE
         LOWBIT = INT(M)
      END IF
      END

      SUBROUTINE CHKI(WHAT, EXPECT, ACTUAL)
      IMPLICIT NONE
      CHARACTER*(*) WHAT
      INTEGER EXPECT, ACTUAL
      INTEGER NFAIL
      COMMON /F77CNT/ NFAIL
      IF (EXPECT .NE. ACTUAL) THEN
         NFAIL = NFAIL + 1
         WRITE (*, '(3A,I0,A,I0)') 'f77_fixed: FAIL: ', WHAT,
     &        ': expected ', EXPECT, ', got ', ACTUAL
      END IF
      END

      SUBROUTINE CHKA(WHAT, EXPECT, ACTUAL)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*(*) WHAT
      INTEGER(KIND=MPI_ADDRESS_KIND) EXPECT, ACTUAL
      INTEGER NFAIL
      COMMON /F77CNT/ NFAIL
      IF (EXPECT .NE. ACTUAL) THEN
         NFAIL = NFAIL + 1
         WRITE (*, '(3A,I0,A,I0)') 'f77_fixed: FAIL: ', WHAT,
     &        ': expected ', EXPECT, ', got ', ACTUAL
      END IF
      END

      SUBROUTINE CHKL(WHAT, EXPECT, ACTUAL)
      IMPLICIT NONE
      CHARACTER*(*) WHAT
      LOGICAL EXPECT, ACTUAL
      INTEGER NFAIL
      COMMON /F77CNT/ NFAIL
      IF (EXPECT .NEQV. ACTUAL) THEN
         NFAIL = NFAIL + 1
         WRITE (*, '(3A,L1,A,L1)') 'f77_fixed: FAIL: ', WHAT,
     &        ': expected ', EXPECT, ', got ', ACTUAL
      END IF
      END

      SUBROUTINE CHKOK(WHAT, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*(*) WHAT
      INTEGER IERR
      INTEGER NFAIL
      COMMON /F77CNT/ NFAIL
      IF (IERR .NE. MPI_SUCCESS) THEN
         NFAIL = NFAIL + 1
         WRITE (*, '(3A,I0)') 'f77_fixed: FAIL: ', WHAT,
     &        ': expected MPI_SUCCESS, got error code ', IERR
      END IF
      END

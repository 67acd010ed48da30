import sys, math
from statistics import mean, stdev
from meeple.rules import simulate, play
def mci(x): m=mean(x); h=1.96*stdev(x)/math.sqrt(len(x)); return round(m,2),round(m-h,2),round(m+h,2)
if sys.argv[1]=="l21":
    from meeple.rules import piggyback_brigade as pb
    res=simulate("piggyback-brigade",pb.Config(players=4),"heuristic",games=2000,seed=21,progress=False)
    for seat in range(4):
        x=[(1/len(g.winners) if seat in g.winners else 0) for g in res.records]; print("L21 share seat",seat+1,mci(x))
    print("shared-win games",sum(len(g.winners)>1 for g in res.records)/2000)
else:
    from meeple.rules import bucket_king as bk
    for rule in ("first-out","rulebook","three-left"):
        cfg=bk.Config(players=6,end_rule=rule)
        res=simulate("bucket-king",cfg,"random",games=150,seed=21,progress=False)
        L,S=[],[]
        # The knock-out count is also in engine_checks.py on purpose: each reviewer script is kept as it ran (issue 27 evidence, README).
        for g in res.records:
            s=play("bucket-king",cfg,list(g.bots),g.seed).state
            left=[10]*6; outs=[]
            for r,lost in enumerate(s.history,1):
                for i,x in enumerate(lost):
                    if left[i]>0 and left[i]-x<=0: outs.append(r)
                    left[i]-=x
            L.append(len(s.history)); S.append(sum(len(s.history)-r for r in outs))
        print("L20",rule,"length",mci(L),"bench",mci(S))
